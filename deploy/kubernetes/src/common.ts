import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvFromSource } from 'kubernetes-models/v1/EnvFromSource';
import type { IPodSecurityContext } from 'kubernetes-models/v1/PodSecurityContext';
import type { ISecurityContext } from 'kubernetes-models/v1/SecurityContext';

/** The one image of every role (docker/Dockerfile); an overlay's `images:` sets the real one. */
export const IMAGE = 'registry.example.com/whatsapp-inbox:1.0.0';

/** Name of the ConfigMap and of the Secret every container reads its environment from. */
export const CONFIG_NAME = 'inbox';

export const API_NAME = 'inbox-api';
export const WORKER_NAME = 'inbox-worker';
export const MIGRATION_NAME = 'inbox-migrate';

/** PORT of an api process (the Dockerfile's default) and METRICS_PORT of every process. */
export const HTTP_PORT = 3000;
export const METRICS_PORT = 9464;

/**
 * `role` tells the objects apart for selectors and for the release steps in docs/deployment.md
 * (`kubectl apply -k … -l role=config`, then `-l role=migrate`, before the Deployments roll).
 */
export type Role = 'api' | 'worker' | 'migrate' | 'config';

export function labelsOf(role: Role): { app: string; role: Role } {
  return { app: 'inbox', role };
}

/** Every process reads the same ConfigMap and Secret (a key in both: the Secret's wins). */
export function envFrom(): IEnvFromSource[] {
  return [{ configMapRef: { name: CONFIG_NAME } }, { secretRef: { name: CONFIG_NAME } }];
}

/** The image's `node` user (uid 1000); nothing needs root, a privilege or a capability. */
export function podSecurity(): IPodSecurityContext {
  return { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } };
}

export function containerSecurity(): ISecurityContext {
  return { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };
}

/** What every container of the service shares: the image, the environment's sources, the security context. */
export function serviceContainer(name: string, rest: Omit<IContainer, 'name' | 'image' | 'envFrom' | 'securityContext'>): IContainer {
  const { command, env, ...others } = rest;
  return { name, image: IMAGE, ...(command ? { command } : {}), ...(env ? { env } : {}), envFrom: envFrom(), ...others, securityContext: containerSecurity() };
}
