// The one-time link of the passkey ceremony as a test reads it (docs/passkey.md#routes): the URL
// `POST /api/chat/passkey/link` answers carries its payload in the fragment.

export interface PasskeyLinkPayload {
  v: number;
  api: string;
  workspace_id: string;
  token: string;
}

/** The payload of `https://web.whatsapp.com/#svc-passkey=<base64url JSON>`. */
export function linkPayload(url: string): PasskeyLinkPayload {
  const fragment = new URL(url).hash.replace(/^#svc-passkey=/, '');
  return JSON.parse(Buffer.from(fragment, 'base64url').toString('utf8')) as PasskeyLinkPayload;
}
