import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { type IStatefulSet, StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { CronJob, type ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import { type IJob, Job } from 'kubernetes-models/batch/v1/Job';
import { type IIngress, Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { type INetworkPolicy, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { type IPodDisruptionBudget, PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { type ISecret, Secret } from 'kubernetes-models/v1/Secret';
import { type IService, Service } from 'kubernetes-models/v1/Service';
import { type IServiceAccount, ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { ManifestObject } from './manifest-file.js';

/**
 * The Kubernetes API's JSON schemas let unknown fields through (the API server drops or refuses
 * them); these lists catch them where a typo costs most: an object's top level, its metadata, a
 * pod's spec and its containers. Each is checked against kubernetes-models' type by `tsc`
 * (`Record<keyof T, true>`: no field missing, none extra), so a new API field fails the build
 * until it is listed.
 */
export type Fields = Readonly<Record<string, true>>;

/** A kubernetes-models class: its type meta, and a constructor validate() can be called on. */
export interface ModelClass {
  readonly apiVersion: string;
  readonly kind: string;
  new (data: never): ManifestObject;
}

export interface KindEntry {
  model: ModelClass;
  topLevel: Fields;
}

function entry<T>(model: ModelClass, topLevel: Record<keyof T, true>): KindEntry {
  return { model, topLevel };
}

const T = true;

/** The kinds these manifests may use, by `<apiVersion> <kind>`; add one here to use it. */
export const KINDS: ReadonlyMap<string, KindEntry> = new Map(
  [
    entry<IConfigMap>(ConfigMap, { apiVersion: T, kind: T, metadata: T, data: T, binaryData: T, immutable: T }),
    entry<ISecret>(Secret, { apiVersion: T, kind: T, metadata: T, data: T, stringData: T, type: T, immutable: T }),
    entry<IService>(Service, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<IServiceAccount>(ServiceAccount, { apiVersion: T, kind: T, metadata: T, automountServiceAccountToken: T, imagePullSecrets: T, secrets: T }),
    entry<IDeployment>(Deployment, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<IStatefulSet>(StatefulSet, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<IJob>(Job, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<ICronJob>(CronJob, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<IHorizontalPodAutoscaler>(HorizontalPodAutoscaler, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<IPodDisruptionBudget>(PodDisruptionBudget, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<IIngress>(Ingress, { apiVersion: T, kind: T, metadata: T, spec: T, status: T }),
    entry<INetworkPolicy>(NetworkPolicy, { apiVersion: T, kind: T, metadata: T, spec: T }),
  ].map((known) => [`${known.model.apiVersion} ${known.model.kind}`, known]),
);

type ObjectMeta = NonNullable<IDeployment['metadata']>;

export const OBJECT_META: Record<keyof ObjectMeta, true> = {
  annotations: T,
  creationTimestamp: T,
  deletionGracePeriodSeconds: T,
  deletionTimestamp: T,
  finalizers: T,
  generateName: T,
  generation: T,
  labels: T,
  managedFields: T,
  name: T,
  namespace: T,
  ownerReferences: T,
  resourceVersion: T,
  selfLink: T,
  uid: T,
};

export const POD_SPEC: Record<keyof IPodSpec, true> = {
  activeDeadlineSeconds: T,
  affinity: T,
  automountServiceAccountToken: T,
  containers: T,
  dnsConfig: T,
  dnsPolicy: T,
  enableServiceLinks: T,
  ephemeralContainers: T,
  hostAliases: T,
  hostIPC: T,
  hostNetwork: T,
  hostPID: T,
  hostUsers: T,
  hostname: T,
  hostnameOverride: T,
  imagePullSecrets: T,
  initContainers: T,
  nodeName: T,
  nodeSelector: T,
  os: T,
  overhead: T,
  preemptionPolicy: T,
  priority: T,
  priorityClassName: T,
  readinessGates: T,
  resourceClaims: T,
  resources: T,
  restartPolicy: T,
  runtimeClassName: T,
  schedulerName: T,
  schedulingGates: T,
  schedulingGroup: T,
  securityContext: T,
  serviceAccount: T,
  serviceAccountName: T,
  setHostnameAsFQDN: T,
  shareProcessNamespace: T,
  subdomain: T,
  terminationGracePeriodSeconds: T,
  tolerations: T,
  topologySpreadConstraints: T,
  volumes: T,
};

export const CONTAINER: Record<keyof IContainer, true> = {
  args: T,
  command: T,
  env: T,
  envFrom: T,
  image: T,
  imagePullPolicy: T,
  lifecycle: T,
  livenessProbe: T,
  name: T,
  ports: T,
  readinessProbe: T,
  resizePolicy: T,
  resources: T,
  restartPolicy: T,
  restartPolicyRules: T,
  securityContext: T,
  startupProbe: T,
  stdin: T,
  stdinOnce: T,
  terminationMessagePath: T,
  terminationMessagePolicy: T,
  tty: T,
  volumeDevices: T,
  volumeMounts: T,
  workingDir: T,
};
