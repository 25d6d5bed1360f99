// The extension's only network access: the two routes of the service named in a ceremony link
// (docs/passkey.md), called from here because web.whatsapp.com's Content Security Policy
// (`connect-src`) blocks them from the page, content scripts included. The service answers CORS
// with `Access-Control-Allow-Origin: *` on these routes, so no host permission is needed. Nothing
// is stored: each message carries the link's service, workspace and token, used once and dropped.
const ext = globalThis.browser ?? globalThis.chrome;

// The service waits for WhatsApp's answers to two queries before it answers the assertion.
const TIMEOUT_MS = 150_000;
const MAX_BODY = 64 * 1024;

/** `{api}/api/chat/passkey/{workspace_id}/{step}`, keeping a path prefix the service's PUBLIC_URL may have. */
function routeOf(api, workspaceId, step) {
  const url = new URL(api);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('the link names a service that is not http(s)');
  if (url.username || url.password) throw new Error('the link names a service with credentials in its address');
  const base = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${base}/api/chat/passkey/${encodeURIComponent(workspaceId)}/${step}`;
}

/** One call to the service: `{ok, status, body}` (body: the parsed JSON, or null), or `{ok: false, status: 0, error}`. */
async function call({ api, workspaceId, token, step, body }) {
  const init = {
    method: step === 'challenge' ? 'GET' : 'POST',
    headers: { 'X-Passkey-Token': token },
    // The token is the only authority; no cookies, no cache, and no redirect (a redirect would
    // carry the token to an address the card did not show).
    credentials: 'omit',
    cache: 'no-store',
    redirect: 'error',
    referrerPolicy: 'no-referrer',
    signal: AbortSignal.timeout(TIMEOUT_MS),
  };
  if (step === 'assertion') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(routeOf(api, workspaceId, step), init);
  } catch (error) {
    return { ok: false, status: 0, error: error?.name === 'TimeoutError' ? 'the service did not answer in time' : String(error?.message ?? error) };
  }
  const text = (await response.text().catch(() => '')).slice(0, MAX_BODY);
  let parsed;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

function valid(message) {
  return (
    message &&
    message.type === 'svc-passkey' &&
    (message.step === 'challenge' || message.step === 'assertion') &&
    typeof message.api === 'string' &&
    typeof message.workspaceId === 'string' &&
    message.workspaceId.length > 0 &&
    message.workspaceId.length <= 100 &&
    typeof message.token === 'string' &&
    message.token.length > 0 &&
    message.token.length <= 512 &&
    (message.step === 'challenge' || (message.body && typeof message.body === 'object'))
  );
}

ext.runtime.onMessage.addListener((message, sender, sendResponse) => {
  if (message?.type !== 'svc-passkey') return false;
  // Only this extension's own content script on WhatsApp Web (not another extension, not a page).
  const from = sender.url ?? sender.tab?.url ?? '';
  if (sender.id !== ext.runtime.id || !from.startsWith('https://web.whatsapp.com/')) {
    sendResponse({ ok: false, status: 0, error: 'refused: not from WhatsApp Web' });
    return false;
  }
  if (!valid(message)) {
    sendResponse({ ok: false, status: 0, error: 'malformed request' });
    return false;
  }
  call(message).then(sendResponse, (error) => sendResponse({ ok: false, status: 0, error: String(error?.message ?? error) }));
  return true; // answers asynchronously
});
