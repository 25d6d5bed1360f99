import type { ScanLidMapping } from '../../scan-driver.port.js';
import { normalisedJid } from './baileys-jid.js';

/** A LID ↔ phone pair as Baileys learns it (`lid-mapping.update`, history chunks); null when one side is missing. */
export function mapLidMapping(mapping: { lid: string; pn: string }): ScanLidMapping | null {
  const lid = normalisedJid(mapping.lid);
  const phone = normalisedJid(mapping.pn);
  return lid && phone ? { lid, phone } : null;
}

export function mapLidMappings(mappings: readonly { lid: string; pn: string }[]): ScanLidMapping[] {
  return mappings.map(mapLidMapping).filter((mapping): mapping is ScanLidMapping => mapping !== null);
}
