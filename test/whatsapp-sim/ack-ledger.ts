import type { LinkedDevice } from './sim-model.js';
import type { WhatsAppSimulator } from './whatsapp-simulator.js';

/**
 * What WhatsApp (the simulator) was told, and when: each message's first acknowledgement and
 * each number's socket closing. Baileys sends the delivery receipt before it hands a message to
 * the service, and WhatsApp never sends an acknowledged message again; so a worker killed
 * outright loses what it had acknowledged and not yet committed (a few milliseconds' worth).
 * Tests that kill a worker use `inFlightAtClose` to tell that window from a real loss.
 */
export class AckLedger {
  private readonly ackedAt = new Map<string, number>();
  private readonly closedAt = new Map<string, number[]>();
  private readonly onAck = (_device: LinkedDevice, id: string): void => void (this.ackedAt.has(id) || this.ackedAt.set(id, Date.now()));
  private readonly onOffline = (device: LinkedDevice): void => {
    const phone = device.account.phone;
    this.closedAt.set(phone, [...(this.closedAt.get(phone) ?? []), Date.now()]);
  };

  private constructor(private readonly sim: WhatsAppSimulator) {
    sim.events.on('acked', this.onAck);
    sim.events.on('offline', this.onOffline);
  }

  static watch(sim: WhatsAppSimulator): AckLedger {
    return new AckLedger(sim);
  }

  stop(): void {
    this.sim.events.off('acked', this.onAck);
    this.sim.events.off('offline', this.onOffline);
  }

  /** When `phone`'s socket first closed within `withinMs` after `since` (a kill), if it did. */
  closedAfter(phone: string, since: number, withinMs = 1_000): number | undefined {
    return this.closedAt.get(phone)?.find((at) => at >= since && at < since + withinMs);
  }

  /**
   * Of `ids` (messages to `phone`), those acknowledged in the `windowMs` before its socket closed
   * right after `killedAt`: the only ones the kill may have lost. Empty when that socket did not
   * close then (it was not the killed process's).
   */
  inFlightAtClose(phone: string, ids: readonly string[], killedAt: number, windowMs = 200): Set<string> {
    const closed = this.closedAfter(phone, killedAt);
    if (closed === undefined) return new Set();
    return new Set(
      ids.filter((id) => {
        const acked = this.ackedAt.get(id);
        return acked !== undefined && acked <= closed && acked > closed - windowMs;
      }),
    );
  }
}
