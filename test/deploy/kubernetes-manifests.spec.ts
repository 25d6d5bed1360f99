import { beforeAll, describe, expect, it } from '@jest/globals';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderManifests } from '../../deploy/kubernetes/src/render-manifests.js';
import { manifestProblems, yamlDocuments } from '../../deploy/kubernetes/src/validate-manifests.js';

const DIR = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));

type Json = Record<string, unknown>;
type Container = Json & { name: string; env?: { name: string; value?: string }[]; ports?: { name?: string; containerPort?: unknown }[] };
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  containers: Container[];
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: Json & { selector?: Json; template?: { metadata?: { labels?: Record<string, string> }; spec: PodSpec } };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  resources?: string[];
}

/** Every document of every YAML file of deploy/kubernetes/, read as Kubernetes reads them. */
async function committedFiles(): Promise<Map<string, Manifest[]>> {
  const files = (await readdir(DIR)).filter((file) => file.endsWith('.yaml') || file.endsWith('.yml')).sort();
  const read = await Promise.all(files.map(async (file) => [file, yamlDocuments(await readFile(join(DIR, file), 'utf8')) as Manifest[]] as const));
  return new Map(read);
}

describe('the Kubernetes manifests (deploy/kubernetes)', () => {
  let files: Map<string, Manifest[]>;
  let all: Manifest[];
  const find = (kind: string, name: string): Manifest => {
    const found = all.find((manifest) => manifest.kind === kind && manifest.metadata?.name === name);
    if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
    return found;
  };
  const podOf = (kind: string, name: string): PodSpec => {
    const spec = find(kind, name).spec?.template?.spec;
    if (!spec) throw new Error(`${kind} ${name} has no pod template`);
    return spec;
  };

  beforeAll(async () => {
    files = await committedFiles();
    all = [...files.values()].flat();
  });

  it('are what deploy/kubernetes/src renders (npm run deploy:render when this fails)', async () => {
    const rendered = await renderManifests(DIR);
    if (process.env.UPDATE_SNAPSHOTS === '1') for (const [file, text] of rendered) await writeFile(join(DIR, file), text);
    expect([...files.keys()]).toEqual([...rendered.keys()].sort());
    const committed = new Map(await Promise.all([...files.keys()].map(async (file) => [file, await readFile(join(DIR, file), 'utf8')] as const)));
    // The files that differ, and the first one's difference.
    const stale = [...rendered.keys()].filter((file) => committed.get(file) !== rendered.get(file));
    expect({ stale, first: committed.get(stale[0] ?? '') }).toEqual({ stale: [], first: rendered.get(stale[0] ?? '') });
  });

  it('are valid: every document of every YAML file, against the Kubernetes API schemas', () => {
    const problems: string[] = [];
    for (const [file, documents] of files) {
      if (documents.length === 0) problems.push(`${file}: no document`);
      documents.forEach((document, index) => problems.push(...manifestProblems(document).map((problem) => `${file} #${index + 1}: ${problem}`)));
    }
    expect(problems).toEqual([]);
    expect(all.map((manifest) => `${manifest.kind}/${manifest.metadata?.name ?? ''}`).sort()).toEqual([
      'ConfigMap/inbox',
      'Deployment/inbox-api',
      'Deployment/inbox-worker',
      'HorizontalPodAutoscaler/inbox-api',
      'Job/inbox-migrate',
      'Kustomization/',
      'PodDisruptionBudget/inbox-worker',
      'Secret/inbox',
      'Service/inbox-api',
    ]);
  });

  it('apply every file but the Secret template with kubectl apply -k', () => {
    const [kustomization] = files.get('kustomization.yaml') ?? [];
    const applied = [...files.keys()].filter((file) => file !== 'kustomization.yaml' && !file.includes('.template.'));
    expect([...(kustomization?.resources ?? [])].sort()).toEqual(applied.sort());
    expect(kustomization?.resources).not.toContain('secret.template.yaml');
  });

  it('wire the objects together: selectors, targets, ports, configuration', () => {
    const apiPods = find('Deployment', 'inbox-api').spec?.template?.metadata?.labels ?? {};
    for (const [key, value] of Object.entries(find('Service', 'inbox-api').spec?.selector ?? {})) expect(apiPods[key]).toBe(value);
    expect(find('HorizontalPodAutoscaler', 'inbox-api').spec?.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'inbox-api' });
    // Every container reads the ConfigMap and the Secret there are; every named probe port exists.
    for (const [kind, name] of [
      ['Deployment', 'inbox-api'],
      ['Deployment', 'inbox-worker'],
      ['Job', 'inbox-migrate'],
    ] as const) {
      for (const container of podOf(kind, name).containers) {
        expect(container.envFrom).toEqual([{ configMapRef: { name: 'inbox' } }, { secretRef: { name: 'inbox' } }]);
        const ports = (container.ports ?? []).map((port) => port.name);
        for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
          const handler = container[probe] as { httpGet?: { port: unknown }; tcpSocket?: { port: unknown } } | undefined;
          const port = handler?.httpGet?.port ?? handler?.tcpSocket?.port;
          if (typeof port === 'string') expect({ [`${name} ${probe}`]: ports.includes(port) }).toEqual({ [`${name} ${probe}`]: true });
        }
      }
    }
    // The Job migrates; the processes do not (and are told their role).
    expect(find('ConfigMap', 'inbox').data?.DB_MIGRATE_ON_START).toBe('false');
    expect(podOf('Job', 'inbox-migrate').containers[0]?.command).toEqual(['node', 'dist/src/infra/database/migrate.cli.js']);
    expect(podOf('Deployment', 'inbox-api').containers[0]?.env).toContainEqual({ name: 'ROLE', value: 'api' });
    expect(podOf('Deployment', 'inbox-worker').containers[0]?.env).toContainEqual({ name: 'ROLE', value: 'worker' });
    // Placeholders only: every value of the Secret template is <...> or holds one.
    for (const value of Object.values(find('Secret', 'inbox').stringData ?? {})) expect(value).toMatch(/<[^>]+>/);
  });

  it('give a stopping worker its preStop pause and 25 s of shutdown before the SIGKILL', () => {
    const pod = podOf('Deployment', 'inbox-worker');
    const preStop = (pod.containers[0]?.lifecycle as { preStop?: { exec?: { command?: string[] } } } | undefined)?.preStop?.exec?.command;
    expect(preStop?.slice(0, 1)).toEqual(['sleep']);
    const pause = Number(preStop?.[1]);
    expect(pause).toBeGreaterThanOrEqual(2);
    expect(pause).toBeLessThanOrEqual(10);
    // src/bootstrap.ts gives up after 25 s; the grace period covers the pause, that and a margin.
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Math.max(40, pause + 25 + 5));
  });

  describe('a broken manifest is reported', () => {
    const api = (): Manifest => structuredClone(find('Deployment', 'inbox-api'));
    const container = (manifest: Manifest): Container => manifest.spec!.template!.spec.containers[0]!;
    const cases: [string, () => unknown, string][] = [
      ['replicas: "two"', () => ({ ...api(), spec: { ...api().spec, replicas: 'two' } }), 'data/spec/replicas must be integer'],
      [
        'a container without image',
        () => {
          const broken = api();
          delete container(broken).image;
          return broken;
        },
        'data/spec/template/spec/containers/0 must have property image',
      ],
      [
        'a container without name',
        () => {
          const broken = api();
          delete (container(broken) as Partial<Container>).name;
          return broken;
        },
        'data/spec/template/spec/containers/0 must have required property name',
      ],
      [
        'a misspelt container field',
        () => {
          const broken = api();
          container(broken).livenesProbe = container(broken).livenessProbe;
          return broken;
        },
        'data/spec/template/spec/containers/0 must NOT have unknown field "livenesProbe"',
      ],
      ['a misspelt top-level field', () => ({ ...api(), sepc: {} }), 'data must NOT have unknown field "sepc"'],
      [
        'a port number as a string',
        () => {
          const broken = api();
          container(broken).ports = [{ name: 'http', containerPort: '3000' }];
          return broken;
        },
        'data/spec/template/spec/containers/0/ports/0/containerPort must be integer',
      ],
      ['a wrong apiVersion', () => ({ ...api(), apiVersion: 'apps/v1beta3' }), 'data has no known schema for apiVersion "apps/v1beta3" kind "Deployment"'],
      ['a wrong kind', () => ({ ...api(), kind: 'Deploymnet' }), 'data has no known schema for apiVersion "apps/v1" kind "Deploymnet"'],
      ['no name', () => ({ ...api(), metadata: { labels: { app: 'inbox' } } }), 'data/metadata/name must be a DNS-1123 name'],
      [
        'a selector that selects no pod of its template',
        () => {
          const broken = api();
          broken.spec!.template!.metadata = { labels: { app: 'inbox', role: 'worker' } };
          return broken;
        },
        'data/spec/selector/matchLabels/role must match data/spec/template/metadata/labels/role',
      ],
      [
        'an unquoted YAML 1.1 boolean in a ConfigMap',
        () => yamlDocuments('apiVersion: v1\nkind: ConfigMap\nmetadata: { name: inbox }\ndata:\n  DB_MIGRATE_ON_START: off\n')[0],
        'data/data/DB_MIGRATE_ON_START must be string',
      ],
    ];

    it('the unbroken one is valid', () => {
      expect(manifestProblems(api())).toEqual([]);
    });

    it.each(cases)('%s', (_name, broken, expected) => {
      expect(manifestProblems(broken())).toContain(expected);
    });
  });
});
