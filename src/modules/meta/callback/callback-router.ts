import { Injectable } from '@nestjs/common';
import { MetaSettingsRepository } from '../settings/meta-settings.repository.js';
import { type CallbackChange, FORWARDED_FIELDS, phoneNumberIdOf, TEMPLATE_FIELDS } from './callback-payload.js';

/** What one callback means to one workspace. */
export interface WorkspaceChanges {
  workspaceId: string;
  /** The changes the service acts on for it, in order: `messages` (ingest) and template updates. */
  changes: CallbackChange[];
  /** Every change that is its own, by entry: what it may be forwarded (a `CallbackShare` for `splitCallback`). */
  share: Map<number, Set<number>>;
  /** One of its own changes has a forwarded field: it gets its share as `meta.chat` (once). */
  forward: boolean;
}

/** Entries holding a forwarded change that reached no workspace, by why. */
export interface Unrouted {
  /** A `messages` change for a number no workspace has (or for none). */
  unknownNumber: number;
  /** A template update for a WABA no workspace has a number of. */
  unknownWaba: number;
}

export interface CallbackRoute {
  workspaces: WorkspaceChanges[];
  unrouted: Unrouted;
}

/** How a change finds its workspaces: by its number, or by its entry's WABA. */
type Key = { by: 'number'; id: string | undefined } | { by: 'waba'; id: string | undefined };

/**
 * `messages` by `phone_number_id`; template updates by the WABA (every workspace with a number of
 * it), as they always were. Any other field is its number's when it names one
 * (`value.metadata.phone_number_id`), else the WABA's: it is never a reason to forward, but it
 * travels with the forwarded changes of its own workspaces, and of no other.
 */
function keyOf(change: CallbackChange): Key {
  if (change.field === 'messages') return { by: 'number', id: phoneNumberIdOf(change) };
  if (TEMPLATE_FIELDS.has(change.field)) return { by: 'waba', id: change.wabaId };
  const number = phoneNumberIdOf(change);
  return number ? { by: 'number', id: number } : { by: 'waba', id: change.wabaId };
}

/**
 * Which workspace each change of a callback belongs to, entry by entry, so that each workspace is
 * forwarded only its own part (tenant isolation over the callback's byte identity). A number has
 * one workspace at most; a WABA may serve several. Changes for numbers or WABAs no workspace has
 * belong to nobody.
 */
@Injectable()
export class CallbackRouter {
  constructor(private readonly settings: MetaSettingsRepository) {}

  async route(changes: CallbackChange[]): Promise<CallbackRoute> {
    const keys = changes.map(keyOf);
    const ids = (by: Key['by']): string[] => [...new Set(keys.flatMap((key) => (key.by === by && key.id ? [key.id] : [])))];
    const [byNumber, byWaba] = await Promise.all([this.settings.workspacesByNumber(ids('number')), this.settings.workspacesByWaba(ids('waba'))]);
    const routed = new Map<string, WorkspaceChanges>();
    const unknown = { number: new Set<number>(), waba: new Set<number>() };
    changes.forEach((change, index) => {
      const key = keys[index]!;
      const owners = !key.id ? [] : key.by === 'number' ? [byNumber.get(key.id) ?? []].flat() : (byWaba.get(key.id) ?? []);
      const forwarded = FORWARDED_FIELDS.has(change.field);
      if (owners.length === 0 && forwarded) unknown[key.by].add(change.entryIndex);
      for (const workspaceId of owners) {
        const workspace = routed.get(workspaceId) ?? { workspaceId, changes: [], share: new Map<number, Set<number>>(), forward: false };
        if (change.field === 'messages' || TEMPLATE_FIELDS.has(change.field)) workspace.changes.push(change);
        const entry = workspace.share.get(change.entryIndex) ?? new Set<number>();
        workspace.share.set(change.entryIndex, entry.add(change.changeIndex));
        workspace.forward ||= forwarded;
        routed.set(workspaceId, workspace);
      }
    });
    return { workspaces: [...routed.values()], unrouted: { unknownNumber: unknown.number.size, unknownWaba: unknown.waba.size } };
  }
}
