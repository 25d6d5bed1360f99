import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Not the project's files: installed packages, build output, git's own data.
const SKIPPED = new Set(['node_modules', 'dist', 'coverage', '.git']);
const TEXT = /\.(ts|mts|mjs|js|json|md|yml|yaml|sh|example)$|^(Dockerfile|run|\.dockerignore|\.gitignore)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return TEXT.test(name) && name !== 'package-lock.json' ? [path] : [];
  });
}

const inside = (path: string): boolean => path === ROOT || path.startsWith(ROOT + sep);
const docs = (): string[] => [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...filesUnder(join(ROOT, 'docs'))];

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

  it('every link in the docs points to a file of the repository', () => {
    const broken: string[] = [];
    for (const file of docs()) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = resolve(dirname(file), target!.split('#')[0]!);
        if (!inside(path) || !existsSync(path)) broken.push(`${relative(ROOT, file)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every document the docs name by file name exists in the repository', () => {
    const known = new Set(filesUnder(ROOT).filter((f) => f.endsWith('.md')).map((f) => f.split(sep).pop()));
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
