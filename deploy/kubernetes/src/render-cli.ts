import { readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { renderManifests } from './render-manifests.js';

// `npm run deploy:render` (from the repository root): writes deploy/kubernetes/*.yaml from
// deploy/kubernetes/src/, and removes YAML files there that no module renders any more.
const dir = resolve('deploy/kubernetes');
const rendered = await renderManifests(dir);
for (const [file, text] of rendered) await writeFile(join(dir, file), text);
for (const file of await readdir(dir)) {
  if (file.endsWith('.yaml') && !rendered.has(file)) await rm(join(dir, file));
}
console.log(`deploy/kubernetes: ${[...rendered.keys()].join(', ')}`);
