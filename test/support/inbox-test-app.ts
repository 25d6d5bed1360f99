import { FakeChannelGateway } from './fake-channel-gateway.js';
import { InboxFactories } from './inbox-factories.js';
import { createTestApp, type TestApp } from './test-app.js';

export interface InboxTestApp {
  t: TestApp;
  inbox: InboxFactories;
  /** The in-memory channel: tell it which workspaces are connected and whether sends fail. */
  gateway: FakeChannelGateway;
}

/** The whole app with the in-memory channel gateway and the inbox factories. */
export async function createInboxTestApp(): Promise<InboxTestApp> {
  const t = await createTestApp({ providers: [FakeChannelGateway] });
  return { t, inbox: new InboxFactories(t.app), gateway: t.app.get(FakeChannelGateway) };
}
