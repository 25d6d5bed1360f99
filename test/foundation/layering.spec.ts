import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ENTITIES } from '../../src/entities.js';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const importsOf = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)].map((m) => m[1]!);

describe('module layering', () => {
  it('keeps the plumbing (src/infra) free of feature imports', () => {
    const wrongWay = sourceFiles(join(SRC, 'infra')).flatMap((file) =>
      importsOf(file)
        .filter((target) => /\/modules\/|\/entities\.js$/.test(target) && !target.includes('/infra/'))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(wrongWay).toEqual([]);
  });

  it('lets no feature reach into another feature’s common/ folder for shared plumbing', () => {
    const reaches = sourceFiles(join(SRC, 'modules')).flatMap((file) => {
      const feature = relative(join(SRC, 'modules'), file).split('/')[0]!;
      return importsOf(file)
        .filter((target) => /\/modules\/([^/]+)\/common\//.test(target) || (/^\.\.\/\.\.\/([^/.]+)\/common\//.test(target) && !target.includes(`/${feature}/`)))
        .map((target) => `${relative(SRC, file)} → ${target}`);
    });
    expect(reaches).toEqual([]);
  });

  it('gathers every @Entity class of every feature module in src/entities.ts', () => {
    const declared = sourceFiles(join(SRC, 'modules'))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/@Entity\([\s\S]*?export class (\w+)/g)].map((m) => m[1]!))
      .sort();
    expect(declared.length).toBeGreaterThan(0);
    expect(ENTITIES.map((entity) => entity.name).sort()).toEqual(declared);
  });
});
