import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Service } from 'kubernetes-models/v1/Service';
import { API_NAME, HTTP_PORT, labelsOf, METRICS_PORT, podSecurity, serviceContainer } from './common.js';
import type { ManifestFile } from './manifest-file.js';

const labels = labelsOf('api');

export const apiDeployment: ManifestFile = {
  file: 'api-deployment.yaml',
  source: 'api-manifests.ts',
  notes: [
    'api processes (ROLE=api): REST, live events (SSE), docs. Stateless: any replica serves any',
    'request, no sticky sessions.',
    '- No `replicas`: the HorizontalPodAutoscaler (api-hpa.yaml, 2 to 10) owns the count, and',
    '  every `kubectl apply` would otherwise reset it.',
    '- Rolling update without losing capacity: maxUnavailable 0, maxSurge 1.',
    '- On SIGTERM the process closes its port at once, answers what is in flight with',
    '  `Connection: close`, and exits 0 within 25 s (exit 1 past that): grace 30 s.',
    '- startupProbe: /api/health for up to 2 minutes (Postgres and Redis slow to answer).',
    '- readinessProbe: /api/health = Postgres and Redis reachable; a degraded pod leaves the',
    '  Service and comes back by itself when they return.',
    '- livenessProbe: the port answers. Not /api/health: a Postgres outage would restart every',
    '  pod at once, which helps nothing (the service rides out outages on its own).',
  ],
  objects: [
    new Deployment({
      metadata: { name: API_NAME, labels },
      spec: {
        selector: { matchLabels: labels },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: 30,
            securityContext: podSecurity(),
            containers: [
              serviceContainer('api', {
                env: [
                  { name: 'ROLE', value: 'api' },
                  { name: 'PORT', value: String(HTTP_PORT) },
                ],
                ports: [
                  { name: 'http', containerPort: HTTP_PORT },
                  { name: 'metrics', containerPort: METRICS_PORT },
                ],
                resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
                startupProbe: { httpGet: { path: '/api/health', port: 'http' }, periodSeconds: 5, failureThreshold: 24 },
                readinessProbe: { httpGet: { path: '/api/health', port: 'http' }, periodSeconds: 5, failureThreshold: 2 },
                livenessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 10, failureThreshold: 3 },
              }),
            ],
          },
        },
      },
    }),
  ],
};

export const apiService: ManifestFile = {
  file: 'api-service.yaml',
  source: 'api-manifests.ts',
  notes: [
    "The api pods behind one address for the ingress (port 80 -> the pods' `http` port, 3000).",
    'Metrics are not published here: scrape every pod on its `metrics` port (9464).',
  ],
  objects: [
    new Service({
      metadata: { name: API_NAME, labels },
      spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    }),
  ],
};

export const apiAutoscaler: ManifestFile = {
  file: 'api-hpa.yaml',
  source: 'api-manifests.ts',
  notes: ['Scales the api Deployment on CPU (2 to 10 replicas, 70 % of the request).'],
  objects: [
    new HorizontalPodAutoscaler({
      metadata: { name: API_NAME, labels },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: API_NAME },
        minReplicas: 2,
        maxReplicas: 10,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      },
    }),
  ],
};
