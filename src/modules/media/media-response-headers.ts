import type { NextFunction, Request, Response } from 'express';

/**
 * How stored media is served. The content type of a file is whatever its sender claimed (a
 * contact, an agent, a key), and the file is served from the service's own origin, where a
 * signed-in operator's cookie is valid: a file a browser could execute (HTML, SVG, XML, …) opened
 * inline would run the sender's script with the operator's session. So only types a browser can
 * merely display or play are served inline, with the allowlisted type itself (never the stored
 * string); everything else is a download (`attachment`), with its stored type (a PDF stays
 * `application/pdf`; docs/scan-inbound.md#storage-and-serving) unless that type is one a
 * browser runs as a document or script, or not a well-formed type at all: then opaque bytes.
 * Matching ignores case and parameters, and a type that is not exactly one of these (odd
 * spacing, a list, junk) is not one of them.
 */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  // Raster images: decoded as pixels, no script, no external loads. (SVG is a document: not here.)
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  // What WhatsApp and browsers send as voice notes, audio and video.
  'audio/ogg',
  'audio/opus',
  'audio/mpeg',
  'audio/mp4',
  'audio/aac',
  'audio/amr',
  'audio/wav',
  'audio/webm',
  'video/mp4',
  'video/3gpp',
  'video/webm',
  'video/ogg',
  'video/quicktime',
]);

export const ATTACHMENT_TYPE = 'application/octet-stream';

/**
 * Sent on every `/api/media` response, the errors included. The CSP matters when a file is opened
 * as a page (the Console links every image with `target="_blank"`): nothing may load but the file
 * itself (`img-src`/`media-src` for the browser's own image and player pages, whose styles are
 * inline), and `sandbox` gives that page an opaque origin with scripts, forms and popups off, so
 * even a mislabelled file could neither run nor act as the service. CORP keeps other sites from
 * embedding a signed-in operator's media; the Console is served from the same origin.
 */
export const MEDIA_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox",
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** Sets `MEDIA_SECURITY_HEADERS` before anything (a guard, the route, an error) answers. */
export function mediaSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  for (const [name, value] of Object.entries(MEDIA_SECURITY_HEADERS)) res.setHeader(name, value);
  next();
}

/** The type without parameters, trimmed and in lower case: `Text/HTML; charset=utf-8` is `text/html`. */
export function baseMimeType(mimeType: string): string {
  return mimeType.split(';')[0]!.trim().toLowerCase();
}

export const isInlineType = (mimeType: string): boolean => INLINE_TYPES.has(baseMimeType(mimeType));

// type/subtype as RFC 9110 tokens, nothing else (no list, no space, no control character).
const WELL_FORMED = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
// What a browser renders as an active document or runs: even downloaded, never labelled so.
const ACTIVE =
  /^(text\/html|application\/xhtml\+xml|text\/xml|application\/xml|text\/xsl|[^/]+\/[^/]*\+xml|.*(java|ecma)script.*|application\/x-shockwave-flash|multipart\/.*|text\/cache-manifest)$/;

/** The type a downloaded file is labelled with: its own, or opaque bytes when that could run. */
function downloadType(mimeType: string): string {
  const type = baseMimeType(mimeType);
  return WELL_FORMED.test(type) && !ACTIVE.test(type) ? type : ATTACHMENT_TYPE;
}

export interface MediaServing {
  contentType: string;
  disposition: string;
}

/**
 * The `Content-Type` and `Content-Disposition` of a stored file. An allowlisted type keeps its
 * (normalised) type, inline, or as an attachment when the sender named the file (a document).
 * Anything else is an attachment named by the sender's file name or, without one, by our own file
 * name (`file`, whose extension never names an executable type), labelled with its own type
 * unless that is an active or malformed one (`application/octet-stream` then).
 */
export function mediaServing(mimeType: string, fileName: string | null, file: string): MediaServing {
  if (isInlineType(mimeType)) {
    return { contentType: baseMimeType(mimeType), disposition: fileName ? attachment(fileName) : 'inline' };
  }
  return { contentType: downloadType(mimeType), disposition: attachment(fileName || file) };
}

/**
 * `attachment` with the file name twice (RFC 6266): a quoted ASCII fallback (anything else, the
 * quote, the backslash, `%` and path separators as `_`, so no browser decodes or splits it) and
 * the exact name as RFC 5987 UTF-8, where `encodeURIComponent` leaves `'()*` unescaped although
 * they are not attr-chars.
 */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%/]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
