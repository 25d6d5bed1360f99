import { Controller, Get, Header, Param, StreamableFile } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { Member } from '../auth/decorators/access.decorators.js';
import { Actor } from '../auth/decorators/actor.decorator.js';
import { MEDIA_FILE_PATTERN } from './media-file-name.js';
import { MEDIA_SECURITY_HEADERS } from './media-response-headers.js';
import { MediaService } from './media.service.js';

const header = (description: string) => ({ description, schema: { type: 'string' } });

@ApiTags('media')
@Member()
@Controller('api/media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  @Get(':workspace/:file')
  @ApiOperation({
    summary: "A stored media file of the caller's workspace (a message's `media_url`)",
    description:
      "The stored bytes. The content type is the sender's claim, so only types a browser can merely display or play are served as " +
      'themselves and inline (by default): JPEG, PNG, GIF, WebP, AVIF and BMP images; Ogg, Opus, MP3, MP4/AAC, AMR, WAV and WebM audio; ' +
      'MP4, 3GPP, WebM, Ogg and QuickTime video (matched without parameters and case). A document of such a type comes as ' +
      "`Content-Disposition: attachment` with its file name. Anything else is an attachment, named by the sender's file name or else " +
      "by the file's own name, with its own type (a PDF is `application/pdf`), except types a browser runs (HTML, SVG and other XML, " +
      "scripts) and malformed ones, which are `application/octet-stream`; the message's `mime_type` keeps the type the sender gave. Every answer, errors included, carries `X-Content-Type-Options: nosniff`, " +
      '`Cross-Origin-Resource-Policy: same-origin` and a Content Security Policy that sandboxes the file when opened as a page.',
  })
  @ApiParam({
    name: 'workspace',
    schema: { type: 'string', format: 'uuid' },
    description: "The workspace the media belongs to: the caller's own (another workspace's media is 404)",
  })
  @ApiParam({ name: 'file', schema: { type: 'string', pattern: MEDIA_FILE_PATTERN.source }, description: "The file name from the message's `media_url`" })
  @ApiProduces('application/octet-stream', 'image/*', 'audio/*', 'video/*')
  @ApiOkResponse({
    description: 'The file',
    schema: { type: 'string', format: 'binary' },
    headers: {
      'Content-Disposition': header(
        '`inline` for an allowlisted type without a file name, else `attachment; filename="<ASCII fallback>"; filename*=UTF-8\'\'<RFC 5987>`',
      ),
      'Content-Security-Policy': header(`\`${MEDIA_SECURITY_HEADERS['Content-Security-Policy']}\``),
      'X-Content-Type-Options': header('`nosniff`'),
      'Cross-Origin-Resource-Policy': header('`same-origin`'),
    },
  })
  @ApiNotFoundResponse({
    description: "`media not found`: unknown file, malformed name, another workspace's media, or (an agent) media of a conversation the agent cannot see",
  })
  @Header('Cache-Control', 'private, max-age=86400')
  async get(@Actor() actor: WorkspaceActor, @Param('workspace') workspace: string, @Param('file') file: string): Promise<StreamableFile> {
    const media = await this.media.open(actor, workspace, file);
    return new StreamableFile(media.stream, { type: media.contentType, length: media.size, disposition: media.disposition });
  }
}
