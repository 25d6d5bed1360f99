import { Injectable } from '@nestjs/common';

/**
 * The current time, injected wherever a rule depends on it (rate-limit windows, token and invite
 * expiry), so tests can move time forward instead of sleeping.
 */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }

  date(offsetMs = 0): Date {
    return new Date(this.now() + offsetMs);
  }
}
