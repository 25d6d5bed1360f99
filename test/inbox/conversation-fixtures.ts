import type { TestUser, TestWorkspace } from '../support/factories.js';
import type { TestApp } from '../support/test-app.js';
import type { Caller } from './inbox-http.js';

/** The conversation shape's keys (docs/inbox.md, "Shapes"). */
export const CONVERSATION_KEYS = [
  'assignee_id',
  'channel',
  'chat_jid',
  'chat_name',
  'chat_phone',
  'contact_id',
  'id',
  'is_group',
  'label_ids',
  'last_message_at',
  'last_message_preview',
  'snoozed_until',
  'status',
  'unread_count',
];

/** A well-formed id that names nothing. */
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** A workspace with a signed-in owner and a write key, as callers. */
export interface WorkspaceCallers {
  ws: TestWorkspace;
  owner: TestUser & { cookie: string };
  ownerCaller: Caller;
  keyCaller: Caller;
}

export async function workspaceCallers(t: TestApp): Promise<WorkspaceCallers> {
  const { workspace, owner, key } = await t.factories.workspaceWithOwner();
  const ownerCaller: Caller = { cookie: owner.cookie, workspaceId: workspace.id };
  return { ws: workspace, owner, ownerCaller, keyCaller: { key } };
}
