import { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import { FakeTemplateGateway, FakeTemplateProvider } from '../support/fake-template-provider.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';
import type { Caller } from '../inbox/inbox-http.js';

export interface ContentTestApp {
  t: TestApp;
  inbox: InboxFactories;
  /** The in-memory scan channel. */
  gateway: FakeChannelGateway;
  /** The in-memory meta channel (sends provider templates by name). */
  meta: FakeTemplateGateway;
  provider: FakeTemplateProvider;
}

/** The whole app with both in-memory channels and the in-memory template provider. */
export async function createContentApp(options: TestAppOptions = {}): Promise<ContentTestApp> {
  const t = await createTestApp({ ...options, providers: [FakeChannelGateway, FakeTemplateGateway, FakeTemplateProvider, ...(options.providers ?? [])] });
  return {
    t,
    inbox: new InboxFactories(t.app),
    gateway: t.app.get(FakeChannelGateway),
    meta: t.app.get(FakeTemplateGateway),
    provider: t.app.get(FakeTemplateProvider),
  };
}

export interface ContentWorkspace {
  workspaceId: string;
  owner: Caller;
  admin: Caller;
  agent: Caller;
  key: Caller;
  readKey: Caller;
}

/** A workspace with an owner, an admin, an agent (all signed in) and a write and a read key. */
export async function contentWorkspace(t: TestApp): Promise<ContentWorkspace> {
  const { workspace, owner, key } = await t.factories.workspaceWithOwner();
  const admin = await t.factories.signedInMember(workspace.id, 'admin');
  const agent = await t.factories.signedInMember(workspace.id, 'agent');
  const readKey = await t.factories.apiKey(workspace.id, 'read');
  const session = (cookie: string): Caller => ({ cookie, workspaceId: workspace.id });
  return {
    workspaceId: workspace.id,
    owner: session(owner.cookie),
    admin: session(admin.cookie),
    agent: session(agent.cookie),
    key: { key },
    readKey: { key: readKey.key },
  };
}
