import { createHmac } from 'node:crypto';

/** `sha256=<hex HMAC-SHA256(appSecret, body)>`, as the provider signs a callback. */
export function signCallback(appSecret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * The exact bytes the provider would send for `payload`: JSON with every character outside ASCII
 * escaped as `\uXXXX`, as Meta sends it. A string or Buffer is sent as it is.
 */
export function callbackBytes(payload: unknown): Buffer {
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  return Buffer.from(
    JSON.stringify(payload).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    'utf8',
  );
}

export interface CallbackResponse {
  status: number;
  text: string;
  /** The parsed JSON answer, when it was JSON. */
  body: unknown;
  /** The bytes that were sent (for byte-for-byte comparisons). */
  sent: Buffer;
}

export interface PostCallbackOptions {
  appSecret: string;
  /** Replaces the computed header; `null` sends none. */
  signature?: string | null;
  headers?: Record<string, string>;
}

/**
 * POSTs a callback to the service like the provider does (`Content-Type: application/json`,
 * `X-Hub-Signature-256` over the exact bytes). `baseUrl` is the service's address, e.g.
 * `http://127.0.0.1:3000`; the path is `/api/meta/webhook`.
 */
export async function postCallback(baseUrl: string, payload: unknown, options: PostCallbackOptions): Promise<CallbackResponse> {
  const sent = callbackBytes(payload);
  const signature = options.signature === undefined ? signCallback(options.appSecret, sent) : options.signature;
  const response = await fetch(`${baseUrl.replace(/\/+$/, '')}/api/meta/webhook`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'facebookexternalua',
      ...(signature !== null ? { 'X-Hub-Signature-256': signature } : {}),
      ...options.headers,
    },
    body: sent,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, text, body, sent };
}
