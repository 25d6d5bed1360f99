import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { SessionPrincipal, WorkspaceActor } from '../auth.types.js';

/** The workspace actor resolved by the guard chain (member, session and console routes). */
export const Actor = createParamDecorator((_: unknown, context: ExecutionContext): WorkspaceActor => {
  const actor = context.switchToHttp().getRequest<Request>().actor;
  if (!actor) throw new Error('@Actor() used on a route that does not resolve a workspace');
  return actor;
});

/** The signed-in user (user, session and console routes). */
export const CurrentSession = createParamDecorator((_: unknown, context: ExecutionContext): SessionPrincipal => {
  const principal = context.switchToHttp().getRequest<Request>().principal;
  if (principal?.type !== 'session') throw new Error('@CurrentSession() used on a route that allows API keys');
  return principal;
});
