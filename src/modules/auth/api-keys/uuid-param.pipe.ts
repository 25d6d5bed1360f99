import type { PipeTransform } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path id that must be a UUID: 400 with the route's own text (`invalid API key id`) instead of
 * letting Postgres reject the cast as a 500.
 */
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly message: string) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw ApiError.badRequest(this.message);
    return value.toLowerCase();
  }
}
