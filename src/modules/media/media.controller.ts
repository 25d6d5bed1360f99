import { Controller, Get, Header, Param, StreamableFile } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { Member } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { MEDIA_FILE_PATTERN } from './media-file-name.js';
import { MediaService } from './media.service.js';

/** `attachment` with the sender's file name (ASCII fallback plus RFC 5987 UTF-8), or `inline`. */
function disposition(fileName: string | null): string {
  if (!fileName) return 'inline';
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

@ApiTags('media')
@Member()
@Controller('api/media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Get(':workspace/:file')
  @ApiOperation({
    summary: "A stored media file of the caller's workspace (a message's `media_url`)",
    description: 'The bytes with their content type; documents come with `Content-Disposition: attachment` and their file name.',
  })
  @ApiParam({ name: 'workspace', schema: { type: 'string', format: 'uuid' }, description: "The workspace the media belongs to: the caller's own (another workspace's media is 404)" })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: MEDIA_FILE_PATTERN.source }, description: "The file name from the message's `media_url`" })
  @ApiProduces('application/octet-stream', 'image/*', 'application/*')
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } })
  @ApiNotFoundResponse({
    description: "`media not found`: unknown file, malformed name, another workspace's media, or (an agent) media of a conversation the agent cannot see",
  })
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'private, max-age=86400')
  async get(@Actor() actor: WorkspaceActor, @Param('workspace') workspace: string, @Param('file') file: string): Promise<StreamableFile> {
    const media = await this.media.open(actor, workspace, file);
    return new StreamableFile(media.stream, { type: media.mimeType, length: media.size, disposition: disposition(media.fileName) });
  }
}
