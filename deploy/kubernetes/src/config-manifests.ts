import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { CONFIG_NAME, labelsOf, METRICS_PORT } from './common.js';
import type { ManifestFile } from './manifest-file.js';

/** Settings that are not secret; every variable of .env.example and README's table may go here. */
export const configMap: ManifestFile = {
  file: 'configmap.yaml',
  source: 'config-manifests.ts',
  notes: [
    'Settings of every process (api, worker, migration Job). Any variable of .env.example or the',
    "README's configuration table may be added; values are strings (quote numbers and booleans).",
    '- TRUST_PROXY "1": exactly one ingress controller in front of the pods.',
    '- MEDIA_STORE s3: pods share no disk, so media goes to a bucket (docs/deployment.md#media).',
    '  For MinIO add S3_ENDPOINT (http://minio.storage:9000) and S3_FORCE_PATH_STYLE "true".',
    '- DB_MIGRATE_ON_START "false": the migration Job (migration-job.yaml) applies migrations',
    '  once per release, before the Deployments roll; the migration CLI ignores this variable.',
  ],
  objects: [
    new ConfigMap({
      metadata: { name: CONFIG_NAME, labels: labelsOf('config') },
      data: {
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://inbox.example.com',
        TRUST_PROXY: '1',
        MEDIA_STORE: 's3',
        S3_BUCKET: 'inbox-media',
        S3_REGION: 'eu-central-1',
        METRICS_PORT: String(METRICS_PORT),
        DB_MIGRATE_ON_START: 'false',
      },
    }),
  ],
};

/**
 * The Secret's shape with placeholders: never a real value in the repository. Not part of the
 * kustomization, so `kubectl apply -k` can never overwrite the real Secret with these.
 */
export const secretTemplate: ManifestFile = {
  file: 'secret.template.yaml',
  source: 'config-manifests.ts',
  notes: [
    'TEMPLATE with placeholders, not applied by `kubectl apply -k` (kustomization.yaml leaves it out).',
    'Copy it outside the repository, replace every <...>, and `kubectl apply -f` the copy once',
    '(or create the Secret with `kubectl create secret generic inbox --from-literal=...`,',
    'or from your secret manager). Keys:',
    '- ENCRYPTION_KEY: `openssl rand -base64 32`. NEVER change it: it decrypts the stored',
    '  provider tokens, webhook secrets and channel sessions.',
    '- METRICS_TOKEN: `openssl rand -hex 24`; the Bearer token Prometheus sends.',
    "- S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: leave both out to use the pod's IAM role.",
    '- SMTP_URL: leave out to write mails to the log instead.',
  ],
  objects: [
    new Secret({
      metadata: { name: CONFIG_NAME, labels: labelsOf('config') },
      type: 'Opaque',
      stringData: {
        ENCRYPTION_KEY: '<openssl rand -base64 32>',
        DATABASE_URL: 'postgres://inbox:<password>@postgres:5432/inbox',
        REDIS_URL: 'redis://:<password>@redis:6379',
        METRICS_TOKEN: '<openssl rand -hex 24>',
        S3_ACCESS_KEY_ID: '<key>',
        S3_SECRET_ACCESS_KEY: '<secret>',
        SMTP_URL: 'smtps://<user>:<password>@smtp.example.com:465',
      },
    }),
  ],
};
