import { Injectable } from '@nestjs/common';
import { MetaSettingsRepository } from '../settings/meta-settings.repository.js';
import { type CallbackChange, FORWARDED_FIELDS, phoneNumberIdOf, TEMPLATE_FIELDS } from './callback-payload.js';

/** The changes of one callback that concern one workspace. */
export interface WorkspaceChanges {
  workspaceId: string;
  changes: CallbackChange[];
  /** Some change has a forwarded field: the workspace gets the payload as `meta.chat` (once). */
  forward: boolean;
}

/**
 * Which workspace each change concerns: `messages` by the number's `phone_number_id` (one
 * workspace at most), template updates by the WABA (`entry[].id`, every workspace with a number
 * of it). Changes for numbers no workspace has are dropped; other fields are not routed.
 */
@Injectable()
export class CallbackRouter {
  constructor(private readonly settings: MetaSettingsRepository) {}

  async route(changes: CallbackChange[]): Promise<WorkspaceChanges[]> {
    const numbers = [...new Set(changes.filter((c) => c.field === 'messages').flatMap((c) => phoneNumberIdOf(c) ?? []))];
    const wabas = [...new Set(changes.filter((c) => TEMPLATE_FIELDS.has(c.field)).flatMap((c) => c.wabaId ?? []))];
    const [byNumber, byWaba] = await Promise.all([this.settings.workspacesByNumber(numbers), this.settings.workspacesByWaba(wabas)]);
    const routed = new Map<string, WorkspaceChanges>();
    const add = (workspaceId: string, change: CallbackChange): void => {
      const entry = routed.get(workspaceId) ?? { workspaceId, changes: [], forward: false };
      entry.changes.push(change);
      entry.forward ||= FORWARDED_FIELDS.has(change.field);
      routed.set(workspaceId, entry);
    };
    for (const change of changes) {
      if (change.field === 'messages') {
        const workspaceId = byNumber.get(phoneNumberIdOf(change) ?? '');
        if (workspaceId) add(workspaceId, change);
      } else if (TEMPLATE_FIELDS.has(change.field) && change.wabaId) {
        for (const workspaceId of byWaba.get(change.wabaId) ?? []) add(workspaceId, change);
      }
    }
    return [...routed.values()];
  }
}
