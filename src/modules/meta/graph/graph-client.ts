import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { type GraphErrorBody, GraphApiError, GraphUnreachableError } from './graph-error.js';

const TIMEOUT_MS = 20_000;
// Largest JSON answer read from the provider (template lists with 100 entries are well below).
const MAX_JSON_BYTES = 8 * 1024 * 1024;

export interface GraphCall {
  /** The workspace's (or the exchanged business) token; none for the code exchange. */
  token?: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  form?: FormData;
}

/**
 * HTTP to the Graph API (`META_GRAPH_URL/META_GRAPH_VERSION/…`): JSON in and out, the provider's
 * error object turned into `GraphApiError`, anything else (network, timeout, non-JSON) into
 * `GraphUnreachableError`. Tokens travel in the `Authorization` header only, never in a URL.
 */
@Injectable()
export class GraphClient {
  constructor(private readonly config: AppConfig) {}

  /** The versioned address of a Graph path (`/123/messages`). */
  url(path: string): URL {
    const { graphUrl, graphVersion } = this.config.meta;
    return new URL(`${graphUrl}/${graphVersion}/${path.replace(/^\/+/, '')}`);
  }

  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, call: GraphCall = {}): Promise<T> {
    const url = this.url(path);
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (call.token) headers.Authorization = `Bearer ${call.token}`;
    let body: string | FormData | undefined;
    if (call.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.json);
    } else if (call.form) {
      body = call.form;
    }
    const response = await this.fetch(url, { method, headers, body });
    const parsed = await readJson(response);
    if (!response.ok) {
      const error = isRecord(parsed) && isRecord(parsed.error) ? (parsed.error as GraphErrorBody) : undefined;
      if (!error) throw new GraphUnreachableError(`the provider answered HTTP ${response.status} without an error object`);
      throw new GraphApiError(response.status, error);
    }
    if (parsed === undefined) throw new GraphUnreachableError('the provider answered something that is not JSON');
    return parsed as T;
  }

  /**
   * Downloads bytes from an address the Graph API handed out (media URLs), with the same token,
   * at most `limit` bytes.
   */
  async download(address: string, token: string, limit: number): Promise<{ data: Buffer; contentType: string }> {
    // Media hosts may redirect to a CDN; fetch drops the token on a redirect to another origin.
    const response = await this.fetch(new URL(address), { method: 'GET', headers: { Authorization: `Bearer ${token}` }, redirect: 'follow' });
    if (!response.ok || !response.body) {
      const parsed = await readJson(response);
      if (isRecord(parsed) && isRecord(parsed.error)) throw new GraphApiError(response.status, parsed.error as GraphErrorBody);
      throw new GraphUnreachableError(`the media address answered HTTP ${response.status}`);
    }
    if (Number(response.headers.get('content-length') ?? 0) > limit) {
      await response.body.cancel();
      throw new GraphUnreachableError(`media is larger than ${limit} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > limit) throw new GraphUnreachableError(`media is larger than ${limit} bytes`);
      chunks.push(Buffer.from(chunk));
    }
    return { data: Buffer.concat(chunks), contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim() };
  }

  private async fetch(url: URL, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { redirect: 'error', ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'the provider did not answer in time' : 'the provider could not be reached';
      throw new GraphUnreachableError(reason, true);
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The JSON body of a response, or undefined when it is not JSON (or too large to be the Graph API's). */
async function readJson(response: Response): Promise<unknown> {
  let text: string;
  try {
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > MAX_JSON_BYTES) return undefined;
    text = bytes.toString('utf8');
  } catch {
    throw new GraphUnreachableError('the provider connection broke off', true);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
