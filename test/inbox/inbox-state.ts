import type { TestApp } from '../support/test-app.js';

export interface InboxState {
  contacts: Record<string, unknown>[];
  conversations: Record<string, unknown>[];
  messages: number;
}

/**
 * Everything ingest may write for a workspace, every column included (updated_at too), so a test
 * can assert that something changed nothing at all.
 */
export async function inboxState(t: TestApp, workspaceId: string): Promise<InboxState> {
  const contacts: Record<string, unknown>[] = await t.dataSource.query('SELECT * FROM contacts WHERE workspace_id = $1 ORDER BY id', [workspaceId]);
  const conversations: Record<string, unknown>[] = await t.dataSource.query('SELECT * FROM conversations WHERE workspace_id = $1 ORDER BY id', [workspaceId]);
  const counted: { n: number }[] = await t.dataSource.query('SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1', [workspaceId]);
  return { contacts, conversations, messages: counted[0]!.n };
}
