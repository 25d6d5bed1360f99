import { ApiKeyEntity } from '../../modules/auth/entities/api-key.entity.js';
import { EmailTokenEntity } from '../../modules/auth/entities/email-token.entity.js';
import { SessionEntity } from '../../modules/auth/entities/session.entity.js';
import { UserEntity } from '../../modules/auth/entities/user.entity.js';
import { ContactEntity } from '../../modules/inbox/entities/contact.entity.js';
import { ConversationEntity } from '../../modules/inbox/entities/conversation.entity.js';
import { MessageEntity } from '../../modules/inbox/entities/message.entity.js';
import { InviteEntity } from '../../modules/tenants/entities/invite.entity.js';
import { WorkspaceMemberEntity } from '../../modules/tenants/entities/workspace-member.entity.js';
import { WorkspaceEntity } from '../../modules/tenants/entities/workspace.entity.js';
import { ScanHistoryBatchEntity } from '../../modules/chat/inbound/entities/scan-history-batch.entity.js';
import { ScanMediaRefEntity } from '../../modules/chat/inbound/entities/scan-media-ref.entity.js';

// Every TypeORM entity, listed explicitly: ESM builds cannot use directory globs reliably.
// Add new entities here (and a migration under ./migrations; the drift test enforces it).
export const ENTITIES: Function[] = [UserEntity, SessionEntity, WorkspaceEntity, WorkspaceMemberEntity, ApiKeyEntity, EmailTokenEntity, InviteEntity, ContactEntity, ConversationEntity, MessageEntity, ScanMediaRefEntity, ScanHistoryBatchEntity];
