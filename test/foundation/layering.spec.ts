import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { getMetadataArgsStorage } from 'typeorm';
import { ENTITIES } from '../../src/entities.js';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const MODULES = join(SRC, 'modules');
const featureOf = (file: string): string => relative(MODULES, file).split('/')[0]!;

/**
 * Which module owns which table: each feature lists its entities in `<feature>.entities.ts`
 * (e.g. INBOX_ENTITIES), and each entity's @Entity names its table.
 */
async function tableOwners(): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  for (const feature of readdirSync(MODULES)) {
    const list = join(MODULES, feature, `${feature}.entities.ts`);
    if (!existsSync(list)) continue;
    const exported = (await import(list)) as Record<string, unknown>;
    for (const entity of Object.values(exported).flat()) {
      const table = getMetadataArgsStorage().tables.find((t) => t.target === entity)?.name;
      if (table) owners.set(table, feature);
    }
  }
  return owners;
}

// SQL that writes a table (keywords upper-case, as everywhere in the service), outside comments.
const WRITE = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/g;
const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** Every table write in the feature modules' sources: the file, the statement's verb and its table. */
const tableWrites = (): { file: string; verb: string; table: string }[] =>
  sourceFiles(MODULES).flatMap((file) =>
    [...withoutComments(readFileSync(file, 'utf8')).matchAll(WRITE)].map((m) => ({ file, verb: m[1]!.replace(/\s+/g, ' '), table: m[2]! })),
  );

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

  it("lets only the module owning a table write it (others go through the owner's services)", async () => {
    const owners = await tableOwners();
    const writes = tableWrites();
    // The detector sees real statements: the inbox's own repositories write its tables.
    expect(new Set(writes.filter((w) => owners.get(w.table) === 'inbox' && featureOf(w.file) === 'inbox').map((w) => w.table))).toEqual(
      new Set([
        'contacts',
        'conversation_notes',
        'conversations',
        'labels',
        'messages',
        'outbound_queue',
        'pending_message_updates',
        'send_first_contacts',
        'send_settings',
      ]),
    );
    const foreign = writes
      .filter((w) => owners.has(w.table) && owners.get(w.table) !== featureOf(w.file))
      .map((w) => `${relative(SRC, w.file)}: ${w.verb} ${w.table} (a table of ${owners.get(w.table)})`);
    expect(foreign).toEqual([]);
  });
});
