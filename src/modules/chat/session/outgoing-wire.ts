import type { ScanOutgoing } from '../driver/scan-driver.port.js';

// A member with media bytes, as JSON carries it: the bytes in base64.
type Wire<T> = T extends { data: Buffer } ? Omit<T, 'data'> & { data: string } : T;

/** A `ScanOutgoing` as JSON can carry it to another process (media bytes in base64; everything else is JSON as it is). */
export type WireOutgoing = Wire<ScanOutgoing>;

export function encodeOutgoing(outgoing: ScanOutgoing): WireOutgoing {
  return 'data' in outgoing ? { ...outgoing, data: outgoing.data.toString('base64') } : outgoing;
}

export function decodeOutgoing(wire: WireOutgoing): ScanOutgoing {
  return 'data' in wire ? { ...wire, data: Buffer.from(wire.data, 'base64') } : wire;
}
