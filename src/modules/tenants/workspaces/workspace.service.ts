import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import type { WorkspaceResponse } from '../dto/workspace.dto.js';
import { toWorkspaceResponse } from './workspace.mapper.js';
import { WorkspaceRepository } from './workspace.repository.js';

@Injectable()
export class WorkspaceService {
  constructor(private readonly workspaces: WorkspaceRepository) {}

  /** The creator becomes its owner. */
  async create(userId: string, name: string): Promise<WorkspaceResponse> {
    const workspace = await this.workspaces.createWithOwner(userId, { name });
    return toWorkspaceResponse(workspace, workspace.role);
  }

  async listForUser(userId: string): Promise<WorkspaceResponse[]> {
    return (await this.workspaces.listForUser(userId)).map((workspace) => toWorkspaceResponse(workspace, workspace.role));
  }

  async get(actor: WorkspaceActor): Promise<WorkspaceResponse> {
    const workspace = await this.workspaces.find(actor.workspaceId);
    // The guard chain resolved the membership a moment ago; only a concurrent delete gets here.
    if (!workspace) throw ApiError.notFound('workspace not found');
    return toWorkspaceResponse(workspace, actor.role);
  }

  async rename(actor: WorkspaceActor, name: string): Promise<WorkspaceResponse> {
    const workspace = await this.workspaces.rename(actor.workspaceId, name);
    if (!workspace) throw ApiError.notFound('workspace not found');
    return toWorkspaceResponse(workspace, actor.role);
  }
}
