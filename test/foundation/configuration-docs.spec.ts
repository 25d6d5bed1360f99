import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage } from 'class-validator';
import { EnvSchema } from '../../src/infra/config/env.schema.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every variable the service reads: each property of EnvSchema carries a validator. */
const variables = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(EnvSchema, '', true, false)
      .map((m) => m.propertyName),
  ),
].sort();

describe('configuration documentation', () => {
  it('finds the variables (sanity check of this test)', () => {
    expect(variables).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'PORT', 'ENCRYPTION_KEY']));
  });

  it('documents every variable in .env.example', () => {
    const example = readFileSync(resolve(ROOT, '.env.example'), 'utf8');
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    expect(variables.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('lists every variable in the README configuration table', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const listed = new Set([...readme.matchAll(/^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/gm)].map((m) => m[1]));
    expect(variables.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('lets docker/compose.yml pass every variable on, but those the stack itself fixes', () => {
    const compose = readFileSync(resolve(ROOT, 'docker/compose.yml'), 'utf8');
    const passed = new Set([...compose.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]));
    const fixedByCompose = ['ROLE', 'PORT'];
    expect(variables.filter((name) => !passed.has(name) && !fixedByCompose.includes(name))).toEqual([]);
  });
});
