// API keys have a recognisable shape; one pasted into a URL path by mistake must not reach logs.
const API_KEY_IN_PATH = /pk_live_[0-9a-z]+/gi;

/**
 * The part of a request URL that may be logged: the path without its query string (which may
 * carry tokens pasted by mistake), with anything shaped like an API key masked.
 */
export function loggablePath(url: string): string {
  return url.split('?')[0]!.replace(API_KEY_IN_PATH, 'pk_live_[redacted]');
}
