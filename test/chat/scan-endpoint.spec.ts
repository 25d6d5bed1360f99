import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { scanEndpoint } from '../../src/modules/chat/session/scan-endpoint.js';
import { chat, createChatApp, type ChatTestApp } from './chat-support.js';

/** Issue 34, item 6: the status names the WebSocket endpoint the sessions use, without its secrets. */
describe('GET /api/chat/status: endpoint', () => {
  let t: ChatTestApp;

  beforeAll(async () => {
    t = await createChatApp({ env: { WA_WEBSOCKET_URL: 'wss://operator:s3cret@wa-sim.example.test:8443/ws/chat?token=abc#frag' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the configured URL without user, password, query or fragment, as not the default, outside production', async () => {
    const created = await t.factories.workspaceWithOwner();
    const res = await chat(t, { cookie: created.owner.cookie, workspaceId: created.workspace.id }, 'get', '/api/chat/status');
    expect(res.status).toBe(200);
    expect(res.body.endpoint).toEqual({ url: 'wss://wa-sim.example.test:8443/ws/chat', default: false, development: true });
    expect(JSON.stringify(res.body)).not.toMatch(/s3cret|operator|token|abc/);
  });

  it('is not shown to API keys: an integration sees the state alone', async () => {
    const { key } = await t.factories.workspaceWithOwner();
    const res = await chat(t, { key }, 'get', '/api/chat/status');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('endpoint');
  });

  it("tells WhatsApp's own endpoint and production apart", () => {
    expect(scanEndpoint({ waWebSocketUrl: 'wss://web.whatsapp.com/ws/chat', nodeEnv: 'production' })).toEqual({
      url: 'wss://web.whatsapp.com/ws/chat',
      default: true,
      development: false,
    });
    // Set to WhatsApp's URL with something more: not the default configuration.
    expect(scanEndpoint({ waWebSocketUrl: 'wss://web.whatsapp.com/ws/chat?x=1', nodeEnv: 'production' })).toEqual({
      url: 'wss://web.whatsapp.com/ws/chat',
      default: false,
      development: false,
    });
    expect(scanEndpoint({ waWebSocketUrl: 'ws://127.0.0.1:7355/ws/chat', nodeEnv: 'test' })).toEqual({
      url: 'ws://127.0.0.1:7355/ws/chat',
      default: false,
      development: true,
    });
  });
});
