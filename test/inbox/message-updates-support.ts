import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCAN_DRIVER } from '../../src/modules/chat/driver/scan-driver.port.js';
import { ScanEventHandler, ScanSessions } from '../../src/modules/chat/session/scan-sessions.port.js';
import type { InboxChange, InboxChangeKind } from '../../src/modules/inbox/changes/inbox-change.js';
import { InboxChangeHooks } from '../../src/modules/inbox/changes/inbox-change-hooks.js';
import { InboxModule } from '../../src/modules/inbox/inbox.module.js';
import { MessageUpdatesService } from '../../src/modules/inbox/messages/message-updates.service.js';
import {
  DEFAULT_PENDING_UPDATES_OPTIONS,
  PENDING_UPDATES_OPTIONS,
  type PendingUpdatesOptions,
} from '../../src/modules/inbox/messages/pending-updates.options.js';
import { PendingUpdatesSweeper } from '../../src/modules/inbox/messages/pending-updates.sweeper.js';
import { MetricsRegistry } from '../../src/infra/metrics/metrics.registry.js';
import { FakeMediaDriver, type InboundTestApp, RecordingIngestHook, RecordingScanSessions } from '../chat/inbound-support.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** The inbound test app (recording sessions, media driver, ingest hook) with the updates' services and a short wait. */
export interface UpdatesTestApp extends InboundTestApp {
  updates: MessageUpdatesService;
  sweeper: PendingUpdatesSweeper;
  /** Every change of these kinds the inbox change hooks saw committed, in order. */
  committed: InboxChange[];
  /** `inbox_message_updates_dropped_total{kind}` of this app. */
  dropped(kind: string): Promise<number>;
  /** Updates still waiting in the workspace. */
  waiting(workspaceId: string): Promise<number>;
}

export const UPDATE_CHANGES: InboxChangeKind[] = ['message.reaction', 'message.edited', 'message.deleted'];

export interface UpdatesTestAppOptions {
  pending?: Partial<PendingUpdatesOptions>;
  env?: Record<string, string>;
  /** A second process on the same database and Redis (with its own sweeper). */
  replicaOf?: TestApp;
  /**
   * Registers a hook recording the updates' changes (`committed`). Without it (as in production,
   * where no webhook event is made from them yet) the updates run without a transaction.
   */
  recordChanges?: boolean;
}

export async function createUpdatesTestApp({ pending = {}, env = {}, replicaOf, recordChanges = true }: UpdatesTestAppOptions = {}): Promise<UpdatesTestApp> {
  const mediaDir = await mkdtemp(join(tmpdir(), 'inbox-media-'));
  const sessions = new RecordingScanSessions();
  const driver = new FakeMediaDriver();
  const t = await createTestApp({
    env: { MEDIA_DIR: mediaDir, ALLOW_HTTP_WEBHOOKS: 'true', ALLOW_PRIVATE_WEBHOOKS: 'true', ...env },
    imports: [InboxModule],
    providers: [RecordingIngestHook],
    replicaOf,
    customize: (builder) =>
      builder
        .overrideProvider(ScanSessions)
        .useValue(sessions)
        .overrideProvider(SCAN_DRIVER)
        .useValue(driver)
        .overrideProvider(PENDING_UPDATES_OPTIONS)
        .useValue({ ...DEFAULT_PENDING_UPDATES_OPTIONS, ...pending }),
  });
  const committed: InboxChange[] = [];
  if (recordChanges) {
    t.app.get(InboxChangeHooks).register({
      changes: UPDATE_CHANGES,
      inTransaction: async () => undefined,
      afterCommit: async (_workspaceId, change) => void committed.push(change),
    });
  }
  const metrics = t.app.get(MetricsRegistry);
  return {
    t,
    sessions,
    driver,
    hook: t.app.get(RecordingIngestHook),
    handler: t.app.get(ScanEventHandler),
    mediaDir,
    updates: t.app.get(MessageUpdatesService),
    sweeper: t.app.get(PendingUpdatesSweeper),
    committed,
    dropped: async (kind) => {
      const metric = await metrics.registry.getSingleMetric('inbox_message_updates_dropped_total')!.get();
      return metric.values.find((value) => value.labels.kind === kind)?.value ?? 0;
    },
    waiting: async (workspaceId) =>
      ((await t.dataSource.query('SELECT count(*)::int AS n FROM pending_message_updates WHERE workspace_id = $1', [workspaceId])) as { n: number }[])[0]!.n,
    close: async () => {
      await t.close();
      await rm(mediaDir, { recursive: true, force: true });
    },
  };
}
