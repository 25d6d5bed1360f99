import { Job } from 'kubernetes-models/batch/v1/Job';
import { labelsOf, MIGRATION_NAME, podSecurity, serviceContainer } from './common.js';
import type { ManifestFile } from './manifest-file.js';

const labels = labelsOf('migrate');

/** The service's exit code for a bad configuration (EX_CONFIG): retrying cannot help. */
const EX_CONFIG = 78;

export const migrationJob: ManifestFile = {
  file: 'migration-job.yaml',
  source: 'migration-job.ts',
  notes: [
    'Applies pending database migrations once per release, before the Deployments roll (the',
    'api and worker processes run with DB_MIGRATE_ON_START=false, configmap.yaml). It runs what',
    '`npm run migration:run` runs, without npm: the migration CLI of the same image, under the',
    'same lock the processes take, so a second run is harmless. It prints what it applied, or',
    '"database is up to date"; exit 1 when a migration failed (retried up to 3 times), 78 on a',
    'bad configuration (not retried: the Job fails at once).',
    'A Job cannot be changed once created: delete the previous one before each release',
    '(`kubectl delete job inbox-migrate --ignore-not-found`), see docs/deployment.md.',
  ],
  objects: [
    new Job({
      metadata: { name: MIGRATION_NAME, labels },
      spec: {
        backoffLimit: 3,
        podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { containerName: 'migrate', operator: 'In', values: [EX_CONFIG] } }] },
        template: {
          metadata: { labels },
          spec: {
            restartPolicy: 'Never',
            securityContext: podSecurity(),
            containers: [
              serviceContainer('migrate', {
                command: ['node', 'dist/src/infra/database/migrate.cli.js'],
                resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } },
              }),
            ],
          },
        },
      },
    }),
  ],
};
