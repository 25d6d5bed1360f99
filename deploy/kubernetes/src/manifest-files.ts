import { apiAutoscaler, apiDeployment, apiService } from './api-manifests.js';
import { configMap, secretTemplate } from './config-manifests.js';
import type { ManifestFile, ManifestObject } from './manifest-file.js';
import { migrationJob } from './migration-job.js';
import { KUSTOMIZATION_API_VERSION, manifestProblems } from './validate-manifests.js';
import { workerDeployment, workerDisruptionBudget } from './worker-manifests.js';

/** What `kubectl apply -k deploy/kubernetes/` applies, in the order the release steps need. */
export const APPLIED: readonly ManifestFile[] = [configMap, migrationJob, apiDeployment, apiService, apiAutoscaler, workerDeployment, workerDisruptionBudget];

/** Files that are never applied from here: templates to copy and fill in. */
export const TEMPLATES: readonly ManifestFile[] = [secretTemplate];

/** kustomize's file (not an API object): validated by manifestProblems' own rules. */
class Kustomization implements ManifestObject {
  readonly apiVersion = KUSTOMIZATION_API_VERSION;
  readonly kind = 'Kustomization';
  constructor(readonly resources: readonly string[]) {}

  toJSON(): unknown {
    return { apiVersion: this.apiVersion, kind: this.kind, resources: this.resources };
  }

  validate(): void {
    const problems = manifestProblems(this.toJSON());
    if (problems.length) throw new Error(problems.join(', '));
  }
}

export const kustomization: ManifestFile = {
  file: 'kustomization.yaml',
  source: 'manifest-files.ts',
  notes: [
    '`kubectl apply -k deploy/kubernetes/`: the ConfigMap, the migration Job and the api and worker',
    'objects. Not the Secret (secret.template.yaml): create it yourself first. A release runs the',
    'Job to completion before the Deployments roll: the steps are in docs/deployment.md.',
    'Adapt it with an overlay of your own rather than by editing these files: a kustomization.yaml',
    'with `resources: [<path to deploy/kubernetes>]`, and `namespace:`, `images:` (newName/newTag',
    'of registry.example.com/whatsapp-inbox) and `patches:` for names, sizes and settings.',
  ],
  objects: [new Kustomization(APPLIED.map((manifest) => manifest.file))],
};

/** Every file render writes into deploy/kubernetes/. */
export const MANIFEST_FILES: readonly ManifestFile[] = [...APPLIED, ...TEMPLATES, kustomization];
