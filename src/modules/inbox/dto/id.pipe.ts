import { type PipeTransform } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/**
 * A path id that must be a UUID: a malformed one is 400 with the contract's text (`invalid
 * conversation id`) instead of reaching Postgres as a cast error.
 */
export class IdPipe implements PipeTransform<string, string> {
  constructor(private readonly message: string) {}

  transform(value: string): string {
    if (!isUuid(value)) throw ApiError.badRequest(this.message);
    return value.toLowerCase();
  }
}

export const ConversationId = new IdPipe('invalid conversation id');
export const ContactId = new IdPipe('invalid contact id');
export const MessageId = new IdPipe('invalid message id');
