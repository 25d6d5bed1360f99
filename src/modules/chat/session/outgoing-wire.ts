import type { MediaKind } from '../../inbox/message-kinds.js';
import type { ScanOutgoing } from '../driver/scan-driver.port.js';

/** A `ScanOutgoing` as JSON can carry it to another process (media bytes in base64). */
export type WireOutgoing = { type: 'text'; body: string } | { type: MediaKind; data: string; mimeType: string; fileName: string; caption: string };

export function encodeOutgoing(outgoing: ScanOutgoing): WireOutgoing {
  return outgoing.type === 'text' ? outgoing : { ...outgoing, data: outgoing.data.toString('base64') };
}

export function decodeOutgoing(wire: WireOutgoing): ScanOutgoing {
  return wire.type === 'text' ? wire : { ...wire, data: Buffer.from(wire.data, 'base64') };
}
