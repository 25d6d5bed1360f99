// Runs in the extension's isolated world on https://web.whatsapp.com at document_start. When the
// address carries a ceremony link (`#svc-passkey=<payload>`, docs/passkey.md), it takes the link,
// removes it from the address at once (before WhatsApp's scripts can read it), fetches the
// WebAuthn request options from the service the link names (through the background worker) and
// shows a card. Its button makes content-main.js, in the page's world, ask for the passkey; the
// assertion goes back to that same service. Nothing is stored.
(() => {
  if (window.top !== window) return;
  const ext = globalThis.browser ?? globalThis.chrome;
  const PREFIX = '#svc-passkey=';
  const DONE = 'Done. Compare the code on your phone with the one in the Console, then confirm there.';

  // --- The channel to content-main.js (see there). Handed over now, before any page script runs.
  const random = new Uint8Array(16);
  crypto.getRandomValues(random);
  const channel = `svc-passkey-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  let mainReady = false;
  const pending = new Map(); // request id → resolve
  const handOver = () => document.dispatchEvent(new CustomEvent('svc-passkey:channel', { detail: channel }));
  const onHello = () => {
    document.removeEventListener('svc-passkey:hello', onHello); // once: a later hello is not the extension's
    handOver();
  };
  document.addEventListener('svc-passkey:hello', onHello);
  document.addEventListener(`${channel}:ready`, () => {
    mainReady = true;
    document.removeEventListener('svc-passkey:hello', onHello);
  });
  document.addEventListener(`${channel}:result`, (event) => {
    let message;
    try {
      message = JSON.parse(String(event.detail));
    } catch {
      return;
    }
    const resolve = message && pending.get(message.id);
    if (!resolve) return; // unknown or already answered: the first answer counts
    pending.delete(message.id);
    resolve(message);
  });
  handOver();

  /** Asks content-main.js for an assertion. Must be called synchronously from the click (user gesture). */
  function askPasskey(options) {
    if (!mainReady)
      return Promise.resolve({
        ok: false,
        error: { name: 'NotSupportedError', message: 'the page part of the extension did not start (Firefox needs version 128 or later)' },
      });
    const idBytes = new Uint8Array(12);
    crypto.getRandomValues(idBytes);
    const id = Array.from(idBytes, (b) => b.toString(16).padStart(2, '0')).join('');
    const answer = new Promise((resolve) => pending.set(id, resolve));
    document.dispatchEvent(new CustomEvent(`${channel}:request`, { detail: JSON.stringify({ id, options }) }));
    return answer;
  }

  // --- The link.
  function decodeLink(encoded) {
    const b64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const json = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const link = JSON.parse(json);
    if (typeof link?.v === 'number' && link.v > 1) throw new Error('it is from a newer version of the service: update the extension');
    if (!link || link.v !== 1) throw new Error('it is not a passkey link of this service');
    if (typeof link.api !== 'string' || typeof link.workspace_id !== 'string' || typeof link.token !== 'string' || !link.workspace_id || !link.token) {
      throw new Error('it is incomplete');
    }
    const api = new URL(link.api);
    if (api.protocol !== 'https:' && api.protocol !== 'http:') throw new Error('it names a service that is not http(s)');
    return { api: link.api, host: api.host, secure: api.protocol === 'https:' || isLoopback(api.hostname), workspaceId: link.workspace_id, token: link.token };
  }

  function isLoopback(hostname) {
    return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  }

  /** Takes the link out of the address bar, keeping WhatsApp's path and query. */
  function takeLinkFromAddress() {
    const hash = location.hash;
    if (!hash.startsWith(PREFIX)) return null;
    history.replaceState(history.state, '', location.pathname + location.search);
    return hash.slice(PREFIX.length);
  }

  function send(step, link, body) {
    return ext.runtime
      .sendMessage({ type: 'svc-passkey', step, api: link.api, workspaceId: link.workspaceId, token: link.token, body })
      .then((answer) => answer ?? { ok: false, status: 0, error: 'the extension did not answer' })
      .catch((error) => ({ ok: false, status: 0, error: String(error?.message ?? error) }));
  }

  /** The service's `{error}` text, or what went wrong on the way. */
  function serviceError(answer, host) {
    if (answer.status === 0) return `Could not reach ${host}: ${answer.error ?? 'no answer'}.`;
    const text = answer.body && typeof answer.body.error === 'string' ? answer.body.error : `${host} answered ${answer.status}`;
    return sentence(text);
  }

  function browserError(error) {
    const name = error?.name ?? 'Error';
    if (name === 'NotAllowedError') return 'The passkey request was cancelled or timed out. Try again with Continue.';
    if (name === 'SecurityError') return `The browser refused the passkey request here (${error.message}).`;
    return `${name}: ${error?.message ?? 'the passkey request failed'}`;
  }

  function sentence(text) {
    const trimmed = String(text).trim();
    const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
    return /[.!?]$/.test(first) ? first : `${first}.`;
  }

  // --- The card.
  const CSS = `
    :host { all: initial; }
    .card { position: fixed; top: 16px; right: 16px; z-index: 2147483647; width: 360px; box-sizing: border-box;
      padding: 18px 20px; border-radius: 12px; background: #fff; color: #111b21; box-shadow: 0 8px 28px rgba(0,0,0,.25);
      font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; border: 1px solid #d1d7db; }
    h2 { margin: 0 28px 8px 0; font-size: 16px; font-weight: 600; }
    .host { display: block; margin: 4px 0 10px; padding: 6px 8px; border-radius: 6px; background: #f0f2f5;
      font: 600 15px/1.3 ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
    .warn { color: #b3261e; font-weight: 600; }
    p { margin: 0 0 10px; }
    button.go { width: 100%; padding: 10px 12px; border: 0; border-radius: 20px; background: #008069; color: #fff;
      font: 600 14px system-ui, sans-serif; cursor: pointer; }
    button.go:disabled { background: #a6b3ba; cursor: default; }
    button.close { position: absolute; top: 10px; right: 12px; border: 0; background: none; font-size: 20px; line-height: 1;
      color: #54656f; cursor: pointer; }
    .status { margin-top: 10px; min-height: 1.45em; color: #3b4a54; }
    .status[data-kind="error"] { color: #b3261e; }
    .status[data-kind="done"] { color: #006a4e; font-weight: 600; }
  `;

  function showCard(link) {
    const hostElement = document.createElement('svc-passkey-card');
    const root = hostElement.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = CSS;
    const card = document.createElement('div');
    card.className = 'card';
    card.setAttribute('role', 'dialog');
    card.setAttribute('aria-labelledby', 'svc-passkey-title');
    const close = document.createElement('button');
    close.className = 'close';
    close.type = 'button';
    close.title = 'Close';
    close.setAttribute('aria-label', 'Close');
    close.textContent = '×';
    const title = document.createElement('h2');
    title.id = 'svc-passkey-title';
    title.textContent = 'Passkey check for a new linked device';
    const asks = document.createElement('p');
    asks.append('This service asks for it:');
    const host = document.createElement('span');
    host.className = 'host';
    host.id = 'svc-passkey-host';
    host.textContent = link.host;
    asks.append(host);
    if (!link.secure) {
      const warn = document.createElement('span');
      warn.className = 'warn';
      warn.textContent = 'Warning: not an https address, the answer travels unencrypted.';
      asks.append(warn);
    }
    const what = document.createElement('p');
    what.textContent = 'Your passkey answers WhatsApp for that service, so it can link a device to your number. Continue only if you started linking there.';
    const button = document.createElement('button');
    button.className = 'go';
    button.type = 'button';
    button.id = 'svc-passkey-continue';
    button.textContent = 'Continue with passkey';
    button.disabled = true;
    const status = document.createElement('div');
    status.className = 'status';
    status.id = 'svc-passkey-status';
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    card.append(close, title, asks, what, button, status);
    root.append(style, card);
    // WhatsApp's app may replace the body or empty it: the card goes back while it is wanted.
    let closed = false;
    let watchedBody = null;
    const keep = new MutationObserver(() => place());
    const place = () => {
      if (closed) return;
      const parent = document.body ?? document.documentElement;
      if (hostElement.parentNode !== parent) parent.append(hostElement);
      if (document.body && watchedBody !== document.body) {
        watchedBody = document.body;
        keep.observe(watchedBody, { childList: true });
      }
    };
    keep.observe(document.documentElement, { childList: true });
    place();
    close.addEventListener('click', () => {
      closed = true;
      keep.disconnect();
      hostElement.remove();
    });
    const setStatus = (text, kind = 'info') => {
      status.textContent = text;
      status.dataset.kind = kind;
    };
    return { button, setStatus, remove: () => close.click() };
  }

  let current = null;

  async function run(encoded) {
    current?.remove();
    let link;
    try {
      link = decodeLink(encoded);
    } catch (error) {
      const card = (current = showCard({ host: '(unreadable link)', secure: true }));
      card.setStatus(`This passkey link cannot be read: ${error.message}. Open WhatsApp Web from the Console again.`, 'error');
      return;
    }
    const card = (current = showCard(link));
    card.setStatus(`Asking ${link.host} for WhatsApp's passkey request…`);
    const challenge = await send('challenge', link);
    if (!challenge.ok || !challenge.body || typeof challenge.body.options !== 'object' || !challenge.body.options?.challenge) {
      card.setStatus(challenge.ok ? `${link.host} sent no passkey request.` : serviceError(challenge, link.host), 'error');
      return;
    }
    const options = challenge.body.options;
    card.button.disabled = false;
    card.setStatus('Ready: click Continue, then approve with the passkey of this WhatsApp account.');
    card.button.addEventListener('click', (event) => {
      // A click the page's scripts made up is no consent of the person's.
      if (!event.isTrusted || card.button.disabled) return;
      card.button.disabled = true;
      card.setStatus('Waiting for your passkey…');
      // Synchronously, within the click: the browser wants the user gesture.
      askPasskey(options).then(async (answer) => {
        if (!answer.ok) {
          card.setStatus(browserError(answer.error), 'error');
          card.button.disabled = false; // the link still holds: another try may work
          return;
        }
        card.setStatus(`Sending the answer to ${link.host}…`);
        const sent = await send('assertion', link, answer.credential);
        if (sent.ok) {
          card.setStatus(DONE, 'done');
          card.button.textContent = 'Passkey sent';
        } else {
          card.setStatus(serviceError(sent, link.host), 'error');
        }
      });
    });
  }

  const first = takeLinkFromAddress();
  if (first !== null) void run(first);
  // A link opened in a tab that already shows WhatsApp Web (only the fragment changed): this
  // listener, added before any of the page's, takes it first; it replaces an earlier card.
  window.addEventListener('hashchange', () => {
    const encoded = takeLinkFromAddress();
    if (encoded !== null) void run(encoded);
  });
})();
