import { loadAll, YAML11_SCHEMA } from 'js-yaml';
import { CONTAINER, type Fields, KINDS, OBJECT_META, POD_SPEC } from './known-fields.js';

export const KUSTOMIZATION_API_VERSION = 'kustomize.config.k8s.io/v1beta1';

/** The fields a kustomization.yaml of this folder may use (kustomize's own type, not an API object). */
const KUSTOMIZATION_FIELDS: Fields = { apiVersion: true, kind: true, resources: true, namespace: true, labels: true, images: true, patches: true };

/** A DNS-1123 subdomain: what every object name here must be. */
const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The documents of a YAML file as Kubernetes reads them: YAML 1.1 scalars, so an unquoted `on`,
 * `yes` or `0755` is a boolean or a number (and fails a ConfigMap's string-only data).
 */
export function yamlDocuments(text: string): unknown[] {
  return loadAll(text, { schema: YAML11_SCHEMA }).filter((document) => document !== null && document !== undefined);
}

/**
 * What is wrong with one manifest, as `data/<path> <message>` lines (none: valid). Checks the
 * Kubernetes API's JSON schema of its apiVersion and kind (kubernetes-models: types, required
 * fields, enums, formats), then what that schema does not say but the API server refuses:
 * unknown fields in the strict places of known-fields.ts, a missing name or image, a selector
 * that does not select the pod template.
 */
export function manifestProblems(document: unknown): string[] {
  if (!isObject(document)) return ['data must be a mapping (one Kubernetes object)'];
  const { apiVersion, kind } = document;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['data must have string apiVersion and kind'];
  if (apiVersion === KUSTOMIZATION_API_VERSION && kind === 'Kustomization') return kustomizationProblems(document);
  const known = KINDS.get(`${apiVersion} ${kind}`);
  // A typo, or a kind these manifests never used: known-fields.ts lists the ones they may.
  if (!known) return [`data has no known schema for apiVersion "${apiVersion}" kind "${kind}"`];

  const problems: string[] = [];
  try {
    new known.model(document as never).validate();
  } catch (error) {
    problems.push(...(error instanceof Error ? error.message : String(error)).split(/, (?=data[/ ])/));
  }
  problems.push(...unknownFields(document, known.topLevel, 'data'));
  const metadata = document.metadata;
  if (!isObject(metadata)) problems.push('data must have property metadata');
  else {
    problems.push(...unknownFields(metadata, OBJECT_META, 'data/metadata'));
    if (typeof metadata.name !== 'string' || !NAME.test(metadata.name)) problems.push('data/metadata/name must be a DNS-1123 name');
  }
  const template = podTemplate(document);
  if (template) problems.push(...podTemplateProblems(document, template.value, template.path));
  return problems;
}

/** The pod template of a workload, and where it is. */
function podTemplate(document: Json): { value: unknown; path: string } | undefined {
  const spec = isObject(document.spec) ? document.spec : undefined;
  switch (document.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'Job':
      return { value: spec?.template, path: 'data/spec/template' };
    case 'CronJob': {
      const job = isObject(spec?.jobTemplate) ? spec.jobTemplate : undefined;
      return { value: isObject(job?.spec) ? job.spec.template : undefined, path: 'data/spec/jobTemplate/spec/template' };
    }
    default:
      return undefined;
  }
}

function podTemplateProblems(document: Json, template: unknown, path: string): string[] {
  if (!isObject(template) || !isObject(template.spec)) return [`${path}/spec must be a pod spec`];
  const problems = unknownFields(template.spec, POD_SPEC, `${path}/spec`);
  if (isObject(template.metadata)) problems.push(...unknownFields(template.metadata, OBJECT_META, `${path}/metadata`));
  for (const list of ['initContainers', 'containers'] as const) {
    const containers = template.spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, index) => {
      const where = `${path}/spec/${list}/${index}`;
      if (!isObject(container)) return;
      problems.push(...unknownFields(container, CONTAINER, where));
      if (typeof container.image !== 'string' || container.image === '') problems.push(`${where} must have property image`);
    });
  }
  // A Job makes its own selector; a Deployment's or StatefulSet's must select its template's labels.
  const selector = isObject(document.spec) && isObject(document.spec.selector) ? document.spec.selector.matchLabels : undefined;
  if (document.kind !== 'Job' && document.kind !== 'CronJob' && isObject(selector)) {
    const labels = isObject(template.metadata) && isObject(template.metadata.labels) ? template.metadata.labels : {};
    for (const [key, value] of Object.entries(selector)) {
      if (labels[key] !== value) problems.push(`data/spec/selector/matchLabels/${key} must match ${path}/metadata/labels/${key}`);
    }
  }
  return problems;
}

function unknownFields(value: Json, known: Fields, path: string): string[] {
  return Object.keys(value)
    .filter((key) => !Object.hasOwn(known, key))
    .map((key) => `${path} must NOT have unknown field "${key}"`);
}

function kustomizationProblems(document: Json): string[] {
  const problems = unknownFields(document, KUSTOMIZATION_FIELDS, 'data');
  const resources = document.resources;
  if (!Array.isArray(resources) || resources.length === 0 || !resources.every((file) => typeof file === 'string')) {
    problems.push('data/resources must be a non-empty list of file names');
  }
  return problems;
}
