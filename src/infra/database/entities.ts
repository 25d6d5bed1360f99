import { ApiKeyEntity } from '../../modules/auth/entities/api-key.entity.js';
import { SessionEntity } from '../../modules/auth/entities/session.entity.js';
import { UserEntity } from '../../modules/auth/entities/user.entity.js';
import { WorkspaceMemberEntity } from '../../modules/tenants/entities/workspace-member.entity.js';
import { WorkspaceEntity } from '../../modules/tenants/entities/workspace.entity.js';

// Every TypeORM entity, listed explicitly: ESM builds cannot use directory globs reliably.
// Add new entities here (and a migration under ./migrations; the drift test enforces it).
export const ENTITIES: Function[] = [UserEntity, SessionEntity, WorkspaceEntity, WorkspaceMemberEntity, ApiKeyEntity];
