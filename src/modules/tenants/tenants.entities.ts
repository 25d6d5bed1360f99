import { InviteEntity } from './entities/invite.entity.js';
import { WorkspaceMemberEntity } from './entities/workspace-member.entity.js';
import { WorkspaceEntity } from './entities/workspace.entity.js';

/** The tables the tenants module owns; gathered with the other modules' in `src/entities.ts`. */
export const TENANTS_ENTITIES = [WorkspaceEntity, WorkspaceMemberEntity, InviteEntity];
