import { Clock } from '../../src/modules/auth/clock/clock.js';

/** A clock that only moves when told to, so windows and expiries are tested without sleeping. */
export class ManualClock extends Clock {
  private current = Date.now();

  override now(): number {
    return this.current;
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
