import { Injectable, type PipeTransform } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A UUID path parameter: `new ParseId('invite')` turns a malformed id into 400 `invalid invite id`
 * instead of a Postgres cast error (a 500).
 */
@Injectable()
export class ParseId implements PipeTransform<string, string> {
  constructor(private readonly what: string) {}

  transform(value: string): string {
    if (typeof value !== 'string' || !UUID.test(value)) throw ApiError.badRequest(`invalid ${this.what} id`);
    return value.toLowerCase();
  }
}
