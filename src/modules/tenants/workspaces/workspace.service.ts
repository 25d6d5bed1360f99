import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { WorkspaceOfUserResponse, WorkspaceResponse } from '../dto/workspace.dto.js';
import { toWorkspaceOfUserResponse, toWorkspaceResponse } from './workspace.mapper.js';
import { WorkspaceRepository } from './workspace.repository.js';

@Injectable()
export class WorkspaceService {
  constructor(private readonly workspaces: WorkspaceRepository) {}

  /** The creator becomes its owner. */
  async create(userId: string, name: string): Promise<WorkspaceOfUserResponse> {
    return toWorkspaceOfUserResponse(await this.workspaces.createWithOwner(userId, { name }));
  }

  async listForUser(userId: string): Promise<WorkspaceOfUserResponse[]> {
    return (await this.workspaces.listForUser(userId)).map(toWorkspaceOfUserResponse);
  }

  async get(workspaceId: string): Promise<WorkspaceResponse> {
    const workspace = await this.workspaces.find(workspaceId);
    // The guard chain resolved the membership a moment ago; only a concurrent delete gets here.
    if (!workspace) throw ApiError.notFound('workspace not found');
    return toWorkspaceResponse(workspace);
  }

  async rename(workspaceId: string, name: string): Promise<WorkspaceResponse> {
    const workspace = await this.workspaces.rename(workspaceId, name);
    if (!workspace) throw ApiError.notFound('workspace not found');
    return toWorkspaceResponse(workspace);
  }
}
