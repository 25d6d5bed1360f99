import { Injectable } from '@nestjs/common';
import { MetaSettingsRepository } from '../settings/meta-settings.repository.js';
import { type CallbackChange, displayDigitsOf, FORWARDED_FIELDS, idText, phoneNumberIdOf, TEMPLATE_FIELDS } from './callback-payload.js';

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

/**
 * How a change finds its workspaces: by its number's id; by its number's display form among the
 * numbers of its entry's WABA; by the WABA (every workspace with a number of it); or not at all.
 */
type Key =
  | { by: 'number'; id: string | undefined }
  | { by: 'waba'; id: string | undefined }
  | { by: 'display'; id: string | undefined; digits: string }
  | { by: 'nobody' };

/**
 * Fields about the WhatsApp Business Account itself (its review, verification, capabilities,
 * templates, flows), which every workspace with a number of it may see. Only these fall back to
 * the WABA when they name no number.
 */
const ACCOUNT_FIELDS: ReadonlySet<string> = new Set([
  'account_alerts',
  'account_review_update',
  'account_update',
  'business_capability_update',
  'flows',
  'message_template_components_update',
  'partner_solutions',
  'payment_configuration_update',
  'template_category_update',
]);

/**
 * `messages` by `phone_number_id`; template updates by the WABA, as they always were. Any other
 * field is its number's when it names one: by id (`value.metadata.phone_number_id`, an
 * `account_alerts` about a `PHONE_NUMBER`), else by display number (`phone_number_quality_update`,
 * `phone_number_name_update`, `security`: the workspace among the WABA's whose number it is).
 * Naming none, an account-level field is the WABA's, and anything else nobody's: a number-level
 * change of a shared WABA must not reach the workspaces of its other numbers. Never a reason to
 * forward, such a change travels with the forwarded changes of its own workspaces, and of no other.
 */
function keyOf(change: CallbackChange): Key {
  if (change.field === 'messages') return { by: 'number', id: phoneNumberIdOf(change) };
  if (TEMPLATE_FIELDS.has(change.field)) return { by: 'waba', id: change.wabaId };
  const number = phoneNumberIdOf(change) ?? alertedNumberOf(change);
  if (number) return { by: 'number', id: number };
  const digits = displayDigitsOf(change);
  if (digits) return { by: 'display', id: change.wabaId, digits };
  return ACCOUNT_FIELDS.has(change.field) ? { by: 'waba', id: change.wabaId } : { by: 'nobody' };
}

/** The number an `account_alerts` change is about (`entity_type` PHONE_NUMBER, `entity_id` its id). */
function alertedNumberOf(change: CallbackChange): string | undefined {
  return change.field === 'account_alerts' && change.value.entity_type === 'PHONE_NUMBER' ? idText(change.value.entity_id) : undefined;
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
    const ids = (...by: Key['by'][]): string[] => [...new Set(keys.flatMap((key) => (by.includes(key.by) && 'id' in key && key.id ? [key.id] : [])))];
    const [byNumber, byWaba] = await Promise.all([this.settings.workspacesByNumber(ids('number')), this.settings.numbersByWaba(ids('waba', 'display'))]);
    const ownersOf = (key: Key): string[] => {
      if (key.by === 'nobody' || !key.id) return [];
      if (key.by === 'number') return [byNumber.get(key.id) ?? []].flat();
      const numbers = byWaba.get(key.id) ?? [];
      return (key.by === 'display' ? numbers.filter((number) => number.displayDigits === key.digits) : numbers).map((number) => number.workspaceId);
    };
    const routed = new Map<string, WorkspaceChanges>();
    const unknown = { number: new Set<number>(), waba: new Set<number>() };
    changes.forEach((change, index) => {
      const key = keys[index]!;
      const owners = ownersOf(key);
      const forwarded = FORWARDED_FIELDS.has(change.field);
      // Forwarded fields are found by number (`messages`) or WABA (template updates) only.
      if (owners.length === 0 && forwarded && (key.by === 'number' || key.by === 'waba')) unknown[key.by].add(change.entryIndex);
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
