/**
 * File names of stored media: an id of ours (hex) and an extension from the MIME type, nothing
 * a sender controls. The same pattern validates names arriving in URLs, so a path can never
 * hold a separator, a dot-dot, a NUL or anything encoded.
 */
export const MEDIA_FILE_PATTERN = /^[a-f0-9]{16,64}\.[a-z0-9]{1,5}$/;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
  'application/pdf': 'pdf',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
  'text/csv': 'csv',
  // What WhatsApp's clients send as voice notes, audio, video and stickers.
  'audio/ogg': 'ogg',
  'audio/opus': 'opus',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'audio/wav': 'wav',
  'audio/webm': 'weba',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
};

export function extensionOf(mimeType: string): string {
  const base = mimeType.split(';')[0]!.trim().toLowerCase();
  return EXTENSIONS[base] ?? 'bin';
}

/**
 * The file name of a message's media: its id (a random UUID) without dashes, so a retried
 * download writes the same file instead of leaving an orphan.
 */
export function mediaFileName(messageId: string, mimeType: string): string {
  return `${messageId.replace(/-/g, '').toLowerCase()}.${extensionOf(mimeType)}`;
}

export const isMediaFileName = (file: unknown): file is string => typeof file === 'string' && MEDIA_FILE_PATTERN.test(file);

/** The address the API serves a stored file at (the `media_url` of a message). */
export const mediaPath = (workspaceId: string, file: string): string => `/api/media/${workspaceId}/${file}`;

/** The id of the message a file belongs to (see `mediaFileName`), or null for any other name. */
export function messageIdOf(file: string): string | null {
  const hex = /^([a-f0-9]{32})\.[a-z0-9]{1,5}$/.exec(file)?.[1];
  if (!hex) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
