import type { GroupMetadata } from '@whiskeysockets/baileys';

const MAX_GROUPS = 256;
const TTL_MS = 10 * 60_000;

/**
 * A small per-socket LRU of group metadata, for Baileys' `cachedGroupMetadata`: without it every
 * group send asks WhatsApp for the participant list first (slow, and heavy querying is what gets
 * numbers rate-limited). Filled on a miss from the socket, refreshed by `groups.upsert`/`update`,
 * and dropped on membership changes so the next send fetches the new list. Bounded in entries and
 * age: a session holds few groups' metadata at a time, and nothing else is kept in memory.
 */
export class GroupMetadataCache {
  private readonly entries = new Map<string, { metadata: GroupMetadata; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  get(jid: string): GroupMetadata | undefined {
    const entry = this.entries.get(jid);
    if (!entry) return undefined;
    this.entries.delete(jid);
    if (this.now() - entry.at > TTL_MS) return undefined;
    this.entries.set(jid, entry);
    return entry.metadata;
  }

  set(metadata: GroupMetadata): void {
    this.entries.delete(metadata.id);
    this.entries.set(metadata.id, { metadata, at: this.now() });
    while (this.entries.size > MAX_GROUPS) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Applies a partial update to a cached group (subject, settings); unknown groups stay unknown. */
  merge(update: Partial<GroupMetadata>): void {
    const entry = update.id ? this.entries.get(update.id) : undefined;
    if (entry) entry.metadata = { ...entry.metadata, ...update };
  }

  delete(jid: string): void {
    this.entries.delete(jid);
  }
}
