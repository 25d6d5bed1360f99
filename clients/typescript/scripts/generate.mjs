// Generates src/schema.ts from the service's OpenAPI document with openapi-typescript.
// Usage: `npm run client:generate` (boots the app in-process, Postgres and Redis up); or
// `node clients/typescript/scripts/generate.mjs <file.json | url>`; without an argument it reads the running
// service's document at $OPENAPI_URL (default http://127.0.0.1:3000/api/openapi.json).
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const SCHEMA_PATH = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

const BANNER = '// Generated from the service’s OpenAPI document by openapi-typescript (npm run client:generate): do not edit.\n\n';

/** The TypeScript of the document's paths, components and webhooks, as committed in src/schema.ts. */
export async function generateSchema(document) {
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { alphabetize: false, exportType: false, defaultNonNullable: false });
  return BANNER + astToString(ast);
}

async function loadDocument(source) {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`${source} answered ${res.status}`);
    return res.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const source = process.argv[2] ?? process.env.OPENAPI_URL ?? 'http://127.0.0.1:3000/api/openapi.json';
  await writeFile(SCHEMA_PATH, await generateSchema(await loadDocument(source)));
  console.log(`wrote ${SCHEMA_PATH} from ${source}`);
}
