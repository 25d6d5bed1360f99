import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../infra/http/api-error.js';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { isUuid } from '../inbox/dto/id.pipe.js';
import { MediaAccessRepository } from './media-access.repository.js';
import { isMediaFileName, messageIdOf } from './media-file-name.js';
import { mediaServing } from './media-response-headers.js';
import { MEDIA_STORE, type MediaStore } from './media-store.port.js';

export const MEDIA_NOT_FOUND = 'media not found';

/** A file as it is sent: its bytes, and the headers `mediaServing` chose for its stored type. */
export interface ServedMedia {
  stream: Readable;
  size: number;
  contentType: string;
  disposition: string;
}

@Injectable()
export class MediaService {
  constructor(
    @Inject(MEDIA_STORE) private readonly store: MediaStore,
    private readonly access: MediaAccessRepository,
  ) {}

  /**
   * GET /api/media/:workspace/:file. Another workspace's file, a malformed name (separators,
   * dot-dots, NUL, anything encoded) and a missing file are one and the same 404, so the answer
   * tells nothing about what exists elsewhere. An agent gets only media of messages in
   * conversations they can see over REST (unassigned or their own): the same 404 otherwise.
   * Only allowlisted types are served inline (see `mediaServing`): the stored type is the sender's.
   */
  async open(actor: WorkspaceActor, workspace: string, file: string): Promise<ServedMedia> {
    if (!isUuid(workspace) || workspace.toLowerCase() !== actor.workspaceId.toLowerCase() || !isMediaFileName(file)) {
      throw ApiError.notFound(MEDIA_NOT_FOUND);
    }
    if (!actor.seesAllConversations && !(await this.agentMaySee(actor, file))) throw ApiError.notFound(MEDIA_NOT_FOUND);
    const media = await this.store.get(actor.workspaceId, file);
    if (!media) throw ApiError.notFound(MEDIA_NOT_FOUND);
    return { stream: media.stream, size: media.size, ...mediaServing(media.mimeType, media.fileName, file) };
  }

  private async agentMaySee(actor: WorkspaceActor, file: string): Promise<boolean> {
    const messageId = messageIdOf(file);
    if (!messageId || !actor.userId) return false;
    return this.access.visibleToAgent(actor.workspaceId, messageId, actor.userId);
  }
}
