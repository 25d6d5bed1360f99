import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** Where a sign-in comes from, stored with the session so a user can recognise it. */
export interface ClientInfo {
  ip?: string;
  userAgent?: string;
}

export const Client = createParamDecorator((_: unknown, context: ExecutionContext): ClientInfo => {
  const request = context.switchToHttp().getRequest<Request>();
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
});
