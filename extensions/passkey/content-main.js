// Runs in WhatsApp Web's own JavaScript world (MAIN), at document_start, before any of the page's
// scripts. WebAuthn is called from here, not from the isolated content script: in the page's
// world the browser and password managers that hook navigator.credentials (1Password, Bitwarden,
// …) offer their passkeys, which they do not for an isolated world (evolution-go #173).
//
// The isolated script talks to this one over CustomEvents whose type is a random name it hands
// over once, synchronously, at document_start (`svc-passkey:hello` / `svc-passkey:channel`),
// before any page script exists. The page's scripts cannot listen for an event type they do not
// know, and everything used here is captured before they run, so they cannot patch it either.
(() => {
  if (window.top !== window) return;
  const doc = document;
  const addListener = EventTarget.prototype.addEventListener;
  const removeListener = EventTarget.prototype.removeEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const Custom = CustomEvent;
  const parseJson = JSON.parse;
  const stringify = JSON.stringify;
  const credentials = navigator.credentials;
  const getCredential = globalThis.CredentialsContainer?.prototype.get;
  const Pkc = globalThis.PublicKeyCredential;
  const parseRequestOptions = typeof Pkc?.parseRequestOptionsFromJSON === 'function' ? Pkc.parseRequestOptionsFromJSON.bind(Pkc) : null;
  const toJsonOf = Pkc?.prototype && typeof Pkc.prototype.toJSON === 'function' ? Pkc.prototype.toJSON : null;
  const fromCharCode = String.fromCharCode;
  const btoaOf = btoa.bind(globalThis);
  const atobOf = atob.bind(globalThis);

  let channel = null;

  const b64urlToBytes = (text) => {
    const b64 = String(text).replace(/-/g, '+').replace(/_/g, '/');
    const binary = atobOf(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  };
  const bytesToB64url = (buffer) => {
    if (buffer == null) return null;
    const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoaOf(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };

  /**
   * PublicKeyCredentialRequestOptionsJSON → the options credentials.get takes. Only what an
   * assertion for WhatsApp needs passes: the rpId is always whatsapp.com and no WebAuthn
   * extensions are asked for (a link from anyone must not get, say, PRF output of the passkey).
   */
  const requestOptionsOf = (given) => {
    const json = {
      challenge: String(given.challenge),
      rpId: 'whatsapp.com',
      userVerification: typeof given.userVerification === 'string' ? given.userVerification : 'required',
      ...(typeof given.timeout === 'number' ? { timeout: given.timeout } : {}),
      ...(Array.isArray(given.allowCredentials)
        ? {
            allowCredentials: given.allowCredentials.map((descriptor) => ({
              id: String(descriptor.id),
              type: 'public-key',
              ...(Array.isArray(descriptor.transports) ? { transports: descriptor.transports.map(String) } : {}),
            })),
          }
        : {}),
    };
    if (parseRequestOptions) return parseRequestOptions(json);
    const options = { ...json, challenge: b64urlToBytes(json.challenge) };
    if (Array.isArray(json.allowCredentials)) {
      options.allowCredentials = json.allowCredentials.map((descriptor) => ({ ...descriptor, id: b64urlToBytes(descriptor.id) }));
    }
    return options;
  };

  /** The assertion as the service takes it: `{id, rawId, type, response}` and nothing else (no extension results). */
  const credentialJsonOf = (credential) => {
    const whole = wholeJsonOf(credential);
    const response = whole.response ?? {};
    return {
      id: whole.id,
      rawId: whole.rawId,
      type: whole.type,
      response: {
        clientDataJSON: response.clientDataJSON,
        authenticatorData: response.authenticatorData,
        signature: response.signature,
        userHandle: response.userHandle ?? null,
      },
    };
  };

  /** PublicKeyCredential.toJSON(), or the same shape by hand where the browser lacks it. */
  const wholeJsonOf = (credential) => {
    if (toJsonOf) return toJsonOf.call(credential);
    const response = credential.response;
    let attachment;
    try {
      attachment = credential.authenticatorAttachment ?? null;
    } catch {
      attachment = null;
    }
    return {
      id: credential.id,
      rawId: bytesToB64url(credential.rawId),
      type: credential.type,
      response: {
        clientDataJSON: bytesToB64url(response.clientDataJSON),
        authenticatorData: bytesToB64url(response.authenticatorData),
        signature: bytesToB64url(response.signature),
        userHandle: bytesToB64url(response.userHandle),
      },
      authenticatorAttachment: attachment,
      clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
    };
  };

  const reply = (message) => {
    dispatch.call(doc, new Custom(`${channel}:result`, { detail: stringify(message) }));
  };

  const onRequest = (event) => {
    let request;
    try {
      request = parseJson(String(event.detail));
    } catch {
      return;
    }
    if (!request || typeof request.id !== 'string' || !request.options) return;
    const id = request.id;
    if (!credentials || !getCredential) {
      reply({ id, ok: false, error: { name: 'NotSupportedError', message: 'This browser offers no passkeys (WebAuthn) here' } });
      return;
    }
    // Called synchronously inside the click's event dispatch: the user gesture is still active.
    let pending;
    try {
      pending = getCredential.call(credentials, { publicKey: requestOptionsOf(request.options) });
    } catch (error) {
      reply({ id, ok: false, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } });
      return;
    }
    pending.then(
      (credential) => {
        if (!credential) {
          reply({ id, ok: false, error: { name: 'NotAllowedError', message: 'No passkey was chosen' } });
          return;
        }
        let json;
        try {
          json = credentialJsonOf(credential);
        } catch (error) {
          reply({ id, ok: false, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } });
          return;
        }
        reply({ id, ok: true, credential: json });
      },
      (error) => reply({ id, ok: false, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error) } }),
    );
  };

  const onChannel = (event) => {
    const name = typeof event.detail === 'string' ? event.detail : '';
    if (channel || !/^svc-passkey-[0-9a-f]{32}$/.test(name)) return;
    channel = name;
    removeListener.call(doc, 'svc-passkey:channel', onChannel);
    addListener.call(doc, `${channel}:request`, onRequest);
    dispatch.call(doc, new Custom(`${channel}:ready`));
  };

  addListener.call(doc, 'svc-passkey:channel', onChannel);
  // In case the isolated script ran first and is waiting to hand the channel over.
  dispatch.call(doc, new Custom('svc-passkey:hello'));
})();
