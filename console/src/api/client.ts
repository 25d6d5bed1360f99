// The one way the Console talks to the service: same-origin fetch with the session cookie, the
// selected workspace in X-Tenant-ID, JSON both ways, and errors turned into readable sentences.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

let workspaceId: string | null = null;
let onUnauthorized: () => void = () => undefined;

/** The workspace every workspace route acts in (X-Tenant-ID). */
export function setWorkspaceHeader(id: string | null): void {
  workspaceId = id;
}

/** Called when a request that needed a session got 401 (signed out elsewhere, session expired). */
export function whenUnauthorized(handler: () => void): void {
  onUnauthorized = handler;
}

export function currentWorkspaceId(): string | null {
  return workspaceId;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  /** Sign-in pages expect 401 as an answer, not as "your session ended". */
  quiet401?: boolean;
  signal?: AbortSignal;
  /** Sees the headers of a successful answer (paged lists carry their next cursor in one). */
  onHeaders?: (headers: Headers) => void;
}

export async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (workspaceId) headers['X-Tenant-ID'] = workspaceId;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'The service cannot be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (response.ok) {
    options.onHeaders?.(response.headers);
    return parsed as T;
  }
  const errorBody = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  if (response.status === 401 && !options.quiet401) onUnauthorized();
  throw new ApiError(response.status, readable(response, errorBody), errorBody);
}

/**
 * The part of a service text that tells a program which route to call next ("…; call POST
 * /api/chat/connect to try again"): group 1 is what for (" to try again"). The Console has buttons
 * for that, so it never shows a route (pages that know the button say which: ui/chat-state.ts).
 */
export const ROUTE_CLAUSE = /\s*[;:,]?\s*\bcall\s+(?:GET|POST|PUT|PATCH|DELETE)\s+\/api\/\S+(.*)$/is;

/** A sentence a person can act on, built from the status and the service's own text. */
function readable(response: Response, body: Record<string, unknown>): string {
  const raw = typeof body.error === 'string' ? body.error : '';
  const clause = ROUTE_CLAUSE.exec(raw);
  const text = clause ? raw.slice(0, clause.index).trim() : raw;
  const requestId = response.headers.get('X-Request-Id');
  switch (response.status) {
    case 401:
      return text === 'unauthorized' ? 'Your session has ended. Please sign in again.' : capitalise(text);
    case 402:
      return 'This workspace needs an active subscription for this.';
    case 403:
      return text === 'admin required' ? 'Only owners and admins of this workspace can do this.' : capitalise(text || 'Not allowed.');
    case 404:
      return body.code === 'not_found' ? 'This feature is not available on this server.' : capitalise(text || 'Not found.');
    case 413:
      return 'That is too large for the service to accept (payload too large). Try a smaller file.';
    case 429: {
      const wait = response.headers.get('Retry-After');
      return `Too many attempts. Please wait ${wait ? `${wait} seconds` : 'a minute'} and try again.`;
    }
    case 500:
      return text && text !== 'internal server error'
        ? capitalise(text)
        : `Something went wrong on the server${requestId ? ` (request ${requestId})` : ''}. Please try again.`;
    case 502:
      return capitalise(text || 'The upstream provider refused the request.');
    case 503:
      return capitalise(text || 'The service is temporarily unavailable. Please retry in a moment.');
    default:
      return capitalise(text || `The request failed (HTTP ${response.status}).`);
  }
}

/** `text` as a sentence: capitalised, ending with a full stop unless it has its own. */
export function capitalise(text: string): string {
  if (!text) return text;
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(sentence) ? sentence : `${sentence}.`;
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** A media path the browser loads by itself (img, a link): the workspace goes in `?tenant=`. */
export function mediaHref(path: string): string {
  if (!path || !workspaceId) return path;
  return `${path}${path.includes('?') ? '&' : '?'}tenant=${encodeURIComponent(workspaceId)}`;
}
