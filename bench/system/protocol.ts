// The IPC messages between the benchmark and its two children: the simulator with its traffic
// generator (sim-driver.ts) and the floor's bare Baileys sockets (floor-process.ts).

/** One message the simulator sent: its id, the account it went to, when (wallNow), whether media. */
export type SendRecord = [id: string, to: string, at: number, media: 0 | 1];

/** Traffic of one step: `count` messages (or rate × seconds) spread evenly at `rate` per second. */
export interface TrafficCommand {
  type: 'traffic';
  step: number;
  phones: string[];
  /** Contacts writing to each number, in turn. */
  contacts: number;
  rate: number;
  seconds?: number;
  count?: number;
  /** Share of the messages that are images (0.1: every tenth). */
  mediaShare: number;
  imageBytes: number;
}

export interface TrafficDone {
  type: 'traffic-done';
  step: number;
  sent: number;
  failed: number;
  firstError?: string;
  /** When the first and the last message went out (wallNow). */
  firstAt: number;
  lastAt: number;
  /** The largest delay of a send behind its schedule (ms): the simulator's own backlog. */
  maxLagMs: number;
}

export type ToSim = TrafficCommand | { type: 'stop' };

export type FromSim = { type: 'ready'; url: string; control: string } | { type: 'sent'; step: number; sends: SendRecord[] } | TrafficDone;

/** An upsert the floor's sockets saw: message id and when (wallNow). */
export type UpsertRecord = [id: string, at: number];

export type ToFloor = { type: 'link'; phones: string[]; concurrency: number } | { type: 'stop' };

export type FromFloor = { type: 'ready' } | { type: 'linked'; seconds: number; error?: string } | { type: 'upserts'; upserts: UpsertRecord[] };

/** The `j`th contact (phone digits) writing to number `phone`: its own, so every pair is a chat of its own. */
export const contactOf = (phone: string, j: number): string => `49${phone.slice(-7)}${String(j).padStart(3, '0')}`;
