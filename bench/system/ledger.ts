// Every message the simulator sent, by id, with when it went out and every arrival at the other
// end (the receiver's 2xx answer, or the floor's messages.upsert). An arrival may be reported
// before its send (the two come over different paths): it waits in the entry until the send does.
import type { SendRecord } from './protocol.js';

export interface Entry {
  step: number;
  sentAt: number;
  media: boolean;
  arrivals: number;
  firstAt: number;
}

export class Ledger {
  private readonly entries = new Map<string, Partial<Entry> & { arrivals: number }>();
  private readonly bySteps = new Map<number, string[]>();

  sent(step: number, records: readonly SendRecord[]): void {
    let ids = this.bySteps.get(step);
    if (!ids) this.bySteps.set(step, (ids = []));
    for (const [id, , at, media] of records) {
      const entry = this.entries.get(id) ?? { arrivals: 0 };
      Object.assign(entry, { step, sentAt: at, media: media === 1 });
      this.entries.set(id, entry);
      ids.push(id);
    }
  }

  arrived(id: string, at: number): void {
    const entry = this.entries.get(id);
    if (!entry) {
      this.entries.set(id, { arrivals: 1, firstAt: at });
      return;
    }
    entry.arrivals += 1;
    if (entry.arrivals === 1) entry.firstAt = at;
  }

  /** The step's messages (those whose send was reported). */
  ofStep(step: number): Entry[] {
    return (this.bySteps.get(step) ?? []).map((id) => this.entries.get(id) as Entry);
  }

  /** The step's messages with their ids. */
  withIdsOfStep(step: number): [string, Entry][] {
    return (this.bySteps.get(step) ?? []).map((id) => [id, this.entries.get(id) as Entry]);
  }

  /** How many of the step's messages arrived so far. */
  arrivedOfStep(step: number): number {
    return this.ofStep(step).filter((e) => e.arrivals > 0).length;
  }

  /** Sent and never arrived; arrived more than once (the extra arrivals); arrived but never sent. */
  totals(): { sent: number; lost: number; duplicated: number; unexpected: number } {
    let sent = 0;
    let lost = 0;
    let duplicated = 0;
    let unexpected = 0;
    for (const entry of this.entries.values()) {
      if (entry.sentAt === undefined) {
        unexpected += entry.arrivals;
        continue;
      }
      sent += 1;
      if (entry.arrivals === 0) lost += 1;
      if (entry.arrivals > 1) duplicated += entry.arrivals - 1;
    }
    return { sent, lost, duplicated, unexpected };
  }

  /** Sent and not arrived yet. */
  outstanding(): number {
    let n = 0;
    for (const entry of this.entries.values()) if (entry.sentAt !== undefined && entry.arrivals === 0) n += 1;
    return n;
  }
}
