import type { AnyMessageContent, proto } from '@whiskeysockets/baileys';
import type { ScanOutgoing, StoredScanMessage } from '../../scan-driver.port.js';

/** What the service sends, as Baileys' `sendMessage` content. */
export function outgoingContent(outgoing: ScanOutgoing): AnyMessageContent {
  switch (outgoing.type) {
    case 'text':
      // No link preview: Baileys would fetch a URL in the text itself (link-preview-js, and the
      // preview's image), past the address policy every fetch of a user's URL goes through.
      return { text: outgoing.body, linkPreview: null };
    case 'image':
      return { image: outgoing.data, mimetype: outgoing.mimeType, caption: outgoing.caption || undefined };
    case 'document':
      return { document: outgoing.data, mimetype: outgoing.mimeType, fileName: outgoing.fileName, caption: outgoing.caption || undefined };
  }
}

/**
 * A sent message rebuilt from the store for the channel's resend request (`getMessage`). Only
 * text can be rebuilt; a media message is not re-sent.
 */
export const resendContent = (stored: StoredScanMessage | undefined): proto.IMessage | undefined =>
  stored?.type === 'text' ? { conversation: stored.content } : undefined;
