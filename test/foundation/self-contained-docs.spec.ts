import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Not the project's files: installed packages, build output, git's own data.
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.git']);
const TEXT = /\.(ts|mts|mjs|js|json|md|yml|yaml|sh|example)$|^(Dockerfile|run|\.dockerignore|\.gitignore)$/;

function filesUnder(dir: string, kind: RegExp = TEXT): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, kind);
    return kind.test(name) && name !== 'package-lock.json' ? [path] : [];
  });
}

const inside = (path: string): boolean => path === ROOT || path.startsWith(ROOT + sep);
const markdownUnder = (dir: string): string[] => filesUnder(dir, /\.md$/);
// The docs, and bench/'s own pages (its README and the benchmark journals, which link into docs/).
const docs = (): string[] => [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...filesUnder(join(ROOT, 'docs')), ...markdownUnder(join(ROOT, 'bench'))];
// The project's code: its comments cite documents by path (`docs/contract.md#errors`).
const CODE = /\.(ts|tsx|mts|mjs|js)$/;
const codeFiles = (): string[] => ['src', 'test', 'bench', 'console'].flatMap((dir) => filesUnder(join(ROOT, dir), CODE));
const comments = (source: string): string[] => [...source.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map(([c]) => c);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading!)));
}
/** Why `target` (a path, then maybe `#anchor`) names nothing of the repository, or null when it does. */
function unresolved(target: string, from: string): string | null {
  const [path, anchor] = target.split('#');
  const file = path ? resolve(from, path) : undefined;
  if (file === undefined || !inside(file) || !existsSync(file)) return 'no such file';
  if (anchor !== undefined && (statSync(file).isDirectory() || !anchorsOf(file).has(anchor))) return 'no such heading';
  return null;
}

describe('the repository stands alone', () => {
  it('no file refers to a path outside the repository', () => {
    const outside: string[] = [];
    for (const file of filesUnder(ROOT)) {
      const text = readFileSync(file, 'utf8');
      const at = relative(ROOT, file);
      // Relative paths that climb (`../x`), resolved from the file's own folder.
      for (const [path] of text.matchAll(/(?<![\w./-])(?:\.\.\/)+[\w@.+-]*/g)) {
        if (!inside(resolve(dirname(file), path))) outside.push(`${at}: ${path}`);
      }
      // The workspace around this checkout, and the design folders that lived next to it.
      for (const [path] of text.matchAll(/\/work\/[\w./-]+|\bshared\/(?:design|spec|research)\b[\w./-]*/g)) outside.push(`${at}: ${path}`);
    }
    expect(outside).toEqual([]);
  });

  it('every link in the docs points to a file of the repository, and to a heading of it', () => {
    const broken: string[] = [];
    for (const file of docs()) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const why = unresolved(target!.startsWith('#') ? relative(dirname(file), file) + target : target!, dirname(file));
        if (why) broken.push(`${relative(ROOT, file)}: ${target} (${why})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('code comments cite documents of the repository, by path and heading', () => {
    const wrong: string[] = [];
    for (const file of codeFiles()) {
      const at = relative(ROOT, file);
      const source = readFileSync(file, 'utf8');
      // The design documents that lived outside the checkout, by name, anywhere in the code.
      for (const [name] of source.matchAll(/\b(?:architecture|interface)\.md\b/g)) wrong.push(`${at}: ${name}`);
      for (const comment of comments(source)) {
        // A document is cited by its path from the repository root: `docs/contract.md#limits`.
        for (const [target] of comment.matchAll(/(?<![\w./-])[\w.-]+(?:\/[\w.-]+)*\.md(?:#[\w-]+)?/g)) {
          const why = target!.includes('/') ? unresolved(target!, ROOT) : 'not a path from the repository root';
          if (why) wrong.push(`${at}: ${target} (${why})`);
        }
        // The contract's section numbers were those of a document outside the repository: cite
        // the heading of docs/contract.md instead.
        for (const [cited] of comment.matchAll(/\bcontract\b[^\n]{0,25}\bsection \d+|\(section \d+(?:\.\d+)?\)/gi)) wrong.push(`${at}: ${cited}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every document the docs name by file name exists in the repository', () => {
    const known = new Set(
      filesUnder(ROOT)
        .filter((f) => f.endsWith('.md'))
        .map((f) => f.split(sep).pop()),
    );
    const missing: string[] = [];
    for (const file of docs()) {
      for (const [name] of readFileSync(file, 'utf8').matchAll(/[\w-]+\.md\b/g)) {
        if (!known.has(name)) missing.push(`${relative(ROOT, file)}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("links the getting-started guide from the README's first screen", () => {
    const firstScreen = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').slice(0, 20).join('\n');
    expect(firstScreen).toContain('(docs/getting-started.md)');
    const guide = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');
    // From nothing to a first call: sign up, workspace, key, conversations, live stream.
    for (const step of ['/api/auth/register', '/api/workspaces', '/api/keys', '/api/conversations', '/api/events']) expect(guide).toContain(step);
  });
});
