// What kind of message an attached file goes out as. The service checks the file itself (a voice
// note must really be Ogg/Opus); the Console picks the kind from the file's type so the agent
// need not, and offers "voice message" only for a file that can be one.

export type AttachmentKind = 'image' | 'video' | 'audio' | 'voice' | 'document';

/** The file types the picker offers: images, video, audio, and the usual documents. */
export const ATTACH_ACCEPT = 'image/*,video/*,audio/*,.ogg,.opus,application/pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv,.zip';

/** The mime type WhatsApp plays a voice note by. */
const VOICE_MIME = 'audio/ogg; codecs=opus';

/** An Ogg (Opus) recording, as WhatsApp's voice notes are: by its type, or its name when the browser gives none. */
export function canBeVoice(file: File): boolean {
  const type = file.type.toLowerCase();
  return type === 'audio/ogg' || type === 'audio/opus' || (!type && /\.(ogg|opus|oga)$/i.test(file.name));
}

export function attachmentKind(file: File, asVoice: boolean): AttachmentKind {
  const type = file.type.toLowerCase();
  if (asVoice && canBeVoice(file)) return 'voice';
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/') || canBeVoice(file)) return 'audio';
  return 'document';
}

/** Whether the kind goes out with the text typed beside it (WhatsApp shows no caption on audio). */
export const takesCaption = (kind: AttachmentKind): boolean => kind === 'image' || kind === 'video' || kind === 'document';

/** The mime type the send names: a voice note's is WhatsApp's own, an Ogg file without a type is audio/ogg. */
export function attachmentMime(file: File, kind: AttachmentKind): string {
  if (kind === 'voice') return VOICE_MIME;
  if (file.type) return file.type;
  return kind === 'audio' ? 'audio/ogg' : 'application/octet-stream';
}
