import type { Role } from '../entities/workspace-member.entity.js';
import type { WorkspaceResponse } from '../dto/workspace.dto.js';
import type { WorkspaceRecord } from './workspace.repository.js';

/** The one workspace shape, with the caller's role. */
export function toWorkspaceResponse(workspace: WorkspaceRecord, role: Role): WorkspaceResponse {
  return {
    id: workspace.id,
    name: workspace.name,
    subscription_status: workspace.subscriptionStatus,
    created_at: new Date(workspace.createdAt).toISOString(),
    role,
  };
}
