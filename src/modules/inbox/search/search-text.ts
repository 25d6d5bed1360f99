/**
 * The words of a search and where they occur in a hit's text. Postgres finds and ranks the hits
 * (to_tsvector('simple'), search.repository.ts); this file turns its lexemes into the tsquery and
 * marks them in a snippet, in the same terms: a lexeme is a word lower-cased, and a hit holds every
 * one of them (the last also as a prefix, for search as you type).
 */

/** The last word also matches as a prefix when it has at least this many characters. */
export const PREFIX_MIN_LENGTH = 3;
/** How much text a snippet shows at most (UTF-16 code units, before the ellipses). */
export const SNIPPET_LENGTH = 160;
/** How much of the text before the first match a snippet keeps, when it has to cut. */
const LEAD = 50;

export interface SearchTerms {
  /** The lexemes in the order they were typed (Postgres' parse of `q`). */
  lexemes: string[];
  /** Whether the last lexeme also matches words it begins. */
  lastIsPrefix: boolean;
}

/** The tsquery text (for a `::tsquery` cast: no second parse) of all lexemes, AND-ed. */
export function toTsquery(terms: SearchTerms): string {
  return terms.lexemes
    .map((lexeme, i) => {
      const quoted = `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
      return terms.lastIsPrefix && i === terms.lexemes.length - 1 ? `${quoted}:*` : quoted;
    })
    .join(' & ');
}

/** The digits of `q` when it looks like a phone number (digits, spaces, `+-().`) with 3 or more digits, else ''. */
export function phoneDigits(q: string): string {
  if (!/^[\d\s+\-().]+$/.test(q)) return '';
  const digits = q.replace(/\D/g, '');
  return digits.length >= 3 ? digits : '';
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD_CHAR = '[\\p{L}\\p{N}]';

/** [start, end) ranges of the lexemes in `text`, merged where they overlap, in order. */
export function findHighlights(text: string, terms: SearchTerms, phone = ''): [number, number][] {
  const ranges: [number, number][] = [];
  terms.lexemes.forEach((lexeme, i) => {
    const prefix = terms.lastIsPrefix && i === terms.lexemes.length - 1;
    const tail = prefix ? `${WORD_CHAR}*` : `(?!${WORD_CHAR})`;
    const pattern = new RegExp(`(?<!${WORD_CHAR})${escapeRegExp(lexeme)}${tail}`, 'giu');
    for (const match of text.matchAll(pattern)) ranges.push([match.index, match.index + match[0].length]);
  });
  if (phone) {
    for (const match of text.matchAll(new RegExp(escapeRegExp(phone), 'g'))) ranges.push([match.index, match.index + match[0].length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

export interface Snippet {
  snippet: string;
  highlights: [number, number][];
}

/**
 * A window of `text` around its first match, whitespace shown as spaces (one for one, so the
 * offsets hold), cut at word boundaries with `…` where it was cut; highlights are offsets into the
 * snippet and only those wholly inside it.
 */
export function makeSnippet(text: string, highlights: [number, number][]): Snippet {
  const flat = text.replace(/\s/g, ' ');
  if (flat.length <= SNIPPET_LENGTH) return { snippet: flat, highlights };
  const first = highlights[0]?.[0] ?? 0;
  let start = Math.max(0, Math.min(first - LEAD, flat.length - SNIPPET_LENGTH));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    // Start after a space when one is near (and before the match), else cut inside the word.
    if (space !== -1 && space < first && space - start < 20) start = space + 1;
  }
  let end = Math.min(flat.length, start + SNIPPET_LENGTH);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start + SNIPPET_LENGTH / 2 && space > (highlights[0]?.[1] ?? 0)) end = space;
  }
  while (start < first && flat[start] === ' ') start++;
  while (end > start && flat[end - 1] === ' ') end--;
  const before = start > 0 ? '…' : '';
  const after = end < flat.length ? '…' : '';
  const shift = before.length - start;
  return {
    snippet: `${before}${flat.slice(start, end)}${after}`,
    highlights: highlights.filter(([s, e]) => s >= start && e <= end).map(([s, e]) => [s + shift, e + shift]),
  };
}
