import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { labelsOf, METRICS_PORT, podSecurity, serviceContainer, WORKER_NAME } from './common.js';
import type { ManifestFile } from './manifest-file.js';

const labels = labelsOf('worker');

/** The preStop pause before SIGTERM, and the process's own shutdown deadline (src/bootstrap.ts). */
const PRE_STOP_SECONDS = 5;
const SHUTDOWN_DEADLINE_SECONDS = 25;

export const workerDeployment: ManifestFile = {
  file: 'worker-deployment.yaml',
  source: 'worker-manifests.ts',
  notes: [
    'worker processes (ROLE=worker): the queues (history sync, media, webhooks, ...) and the scan',
    "channel's sockets, one per linked number in the whole cluster under a Redis lease. Not",
    'autoscaled on CPU: size by memory (~10-60 MB per linked number) and scale by hand or on',
    'queue depth (inbox_queue_jobs{state="waiting"}) through KEDA or the Prometheus adapter.',
    `- preStop sleeps ${PRE_STOP_SECONDS} s first, so the endpoints settle (the terminating pod is out of every`,
    "  endpoint list and Prometheus's targets) before the process is told to stop.",
    '- Then SIGTERM, which the process handles itself: it stops taking jobs and lets running ones',
    '  finish (15 s at most), closes its WhatsApp sockets and releases their leases (other workers',
    '  take the numbers over at their next sweep, without a new QR code), closes Postgres and',
    `  Redis, and exits 0; after ${SHUTDOWN_DEADLINE_SECONDS} s it exits anyway (code 1).`,
    `- terminationGracePeriodSeconds 45 >= ${PRE_STOP_SECONDS} s preStop + ${SHUTDOWN_DEADLINE_SECONDS} s shutdown, with room to spare`,
    '  before the SIGKILL.',
    '- A worker opens no API port; its metrics port (METRICS_PORT) shows the process is up. It opens',
    '  once the process has started (Postgres reached): the startupProbe allows 2 minutes for that.',
  ],
  objects: [
    new Deployment({
      metadata: { name: WORKER_NAME, labels },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: 45,
            securityContext: podSecurity(),
            containers: [
              serviceContainer('worker', {
                // The cap follows the memory limit (docs/operations.md, "Sizing"): about 4 MB per
                // number under traffic over a ~200 MB process, with headroom for history syncs.
                env: [
                  { name: 'ROLE', value: 'worker' },
                  { name: 'CHAT_MAX_SESSIONS_PER_WORKER', value: '400' },
                ],
                ports: [{ name: 'metrics', containerPort: METRICS_PORT }],
                resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { memory: '2Gi' } },
                lifecycle: { preStop: { exec: { command: ['sleep', String(PRE_STOP_SECONDS)] } } },
                startupProbe: { tcpSocket: { port: 'metrics' }, periodSeconds: 5, failureThreshold: 24 },
                livenessProbe: { tcpSocket: { port: 'metrics' }, periodSeconds: 10, failureThreshold: 3 },
              }),
            ],
          },
        },
      },
    }),
  ],
};

export const workerDisruptionBudget: ManifestFile = {
  file: 'worker-pdb.yaml',
  source: 'worker-manifests.ts',
  notes: ['Keeps one worker up through voluntary disruptions (node drains, cluster upgrades).'],
  objects: [
    new PodDisruptionBudget({
      metadata: { name: WORKER_NAME, labels },
      spec: { minAvailable: 1, selector: { matchLabels: labels } },
    }),
  ],
};
