import type { WorkspaceOfUserResponse, WorkspaceResponse } from '../dto/workspace.dto.js';
import type { WorkspaceOfUser, WorkspaceRecord } from './workspace.repository.js';

export function toWorkspaceResponse(workspace: WorkspaceRecord): WorkspaceResponse {
  return {
    id: workspace.id,
    name: workspace.name,
    subscription_status: workspace.subscriptionStatus,
    created_at: workspace.createdAt.toISOString(),
  };
}

export function toWorkspaceOfUserResponse(workspace: WorkspaceOfUser): WorkspaceOfUserResponse {
  return { id: workspace.id, name: workspace.name, role: workspace.role };
}
