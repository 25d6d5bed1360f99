import type { WhatsAppSimulator } from '../../whatsapp-sim/whatsapp-simulator.js';
import type { Workspace } from './cluster.js';
import { sleep } from './ports.js';

export interface ContactsWriting {
  /** The ids written so far, per number (grows while the contact writes). */
  readonly written: ReadonlyMap<Workspace, string[]>;
  /** When each id was written. */
  readonly sentAt: ReadonlyMap<string, number>;
  /** Stops writing; answers the ids per number. */
  stop(): Promise<Map<Workspace, string[]>>;
}

/**
 * One simulated contact writing `<label> <n>` to each of `numbers` in turn, every `everyMs`,
 * until stopped: the traffic a fault scenario breaks things under.
 */
export function contactsWriting(
  sim: WhatsAppSimulator,
  numbers: readonly Workspace[],
  contact: { from: string; name: string },
  label: string,
  everyMs: number,
): ContactsWriting {
  const ids = new Map(numbers.map((ws) => [ws, [] as string[]]));
  const sentAt = new Map<string, number>();
  let writing = true;
  const loop = (async () => {
    for (let n = 1; writing; n += 1) {
      for (const ws of numbers) {
        const id = await sim.deliverText({ to: ws.phone, from: contact.from, name: contact.name, text: `${label} ${n}` });
        ids.get(ws)!.push(id);
        sentAt.set(id, Date.now());
      }
      await sleep(everyMs);
    }
  })();
  return {
    written: ids,
    sentAt,
    stop: async () => {
      writing = false;
      await loop;
      return ids;
    },
  };
}
