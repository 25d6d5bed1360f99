import type { LinkedDevice } from './sim-model.js';
import type { WhatsAppSimulator } from './whatsapp-simulator.js';

/**
 * What WhatsApp (the simulator) was told, and when: each message's first acknowledgement and
 * each number's socket closing. The service acknowledges an inbound message only once it is
 * stored, so a test that kills a worker can tell from here that the kill closed a socket, and when
 * each message it finds stored was acknowledged.
 */
export class AckLedger {
  private readonly acks = new Map<string, number>();
  private readonly closedAt = new Map<string, number[]>();
  private readonly onAck = (_device: LinkedDevice, id: string): void => void (this.acks.has(id) || this.acks.set(id, Date.now()));
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

  /** When message `id` was first acknowledged, if it was. */
  ackedAt(id: string): number | undefined {
    return this.acks.get(id);
  }
}
