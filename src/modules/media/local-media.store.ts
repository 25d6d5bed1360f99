import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../infra/config/app-config.js';
import { isUuid } from '../inbox/dto/id.pipe.js';
import { isMediaFileName } from './media-file-name.js';
import type { MediaMeta, MediaStore, StoredMedia } from './media-store.port.js';

/**
 * `MEDIA_DIR/<workspace>/<file>`, with the metadata in `<file>.json` beside it (a name the file
 * pattern never matches, so it cannot be requested). Both parts of a path are checked again
 * here: whatever a caller passes, nothing outside the workspace's directory is ever touched.
 */
@Injectable()
export class LocalMediaStore implements MediaStore {
  constructor(private readonly config: AppConfig) {}

  async put(workspaceId: string, file: string, bytes: Buffer, meta: MediaMeta): Promise<void> {
    const path = this.path(workspaceId, file);
    await mkdir(join(this.config.mediaDir, workspaceId.toLowerCase()), { recursive: true });
    // Metadata first, then the bytes, each renamed into place: a reader that finds the file finds
    // its metadata too, and never a half-written file.
    await this.writeAtomically(`${path}.json`, JSON.stringify({ mimeType: meta.mimeType, fileName: meta.fileName }));
    await this.writeAtomically(path, bytes);
  }

  async get(workspaceId: string, file: string): Promise<StoredMedia | null> {
    const path = this.path(workspaceId, file);
    try {
      const [info, raw] = await Promise.all([stat(path), readFile(`${path}.json`, 'utf8')]);
      if (!info.isFile()) return null;
      const meta = JSON.parse(raw) as Partial<MediaMeta>;
      return {
        mimeType: typeof meta.mimeType === 'string' && meta.mimeType ? meta.mimeType : 'application/octet-stream',
        fileName: typeof meta.fileName === 'string' && meta.fileName ? meta.fileName : null,
        size: info.size,
        stream: createReadStream(path),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(workspaceId: string, file: string): Promise<boolean> {
    try {
      return (await stat(this.path(workspaceId, file))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  private path(workspaceId: string, file: string): string {
    if (!isUuid(workspaceId) || !isMediaFileName(file)) throw new Error(`media store: refused path ${JSON.stringify([workspaceId, file])}`);
    return join(this.config.mediaDir, workspaceId.toLowerCase(), file);
  }

  private async writeAtomically(path: string, data: string | Buffer): Promise<void> {
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, data);
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}
