import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import {
  CHANNEL_NAMES,
  ChannelBusyError,
  ChannelError,
  ChannelNotConnectedError,
  type ChannelGateway,
  type ChannelName,
} from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { ConversationRepository } from '../conversations/conversation.repository.js';
import { MessageRepository } from '../messages/message.repository.js';
import { toChannelConversation } from '../messages/message-target.js';
import { dispatch } from '../messages/send-message.service.js';
import { SendOutcomeService } from '../messages/send-outcome.service.js';
import { OutboundMetrics } from './outbound.metrics.js';
import { LANE_HOLD_MS, OutboundLaneStore } from './outbound-lane.store.js';
import { OutboundQueueRepository, type QueuedRow } from './outbound-queue.repository.js';
import { decodeQueuedSend, type QueuedSend } from './queued-send.codec.js';
import { SendSettingsService } from './send-settings.service.js';
import { typingPlan } from './typing-plan.js';

/** A number that stays disconnected this long fails its queued sends (`chat is not connected`). */
export const DISCONNECTED_GIVE_UP_MS = 10 * 60_000;
/** Tries of a send that fails for a reason the channel did not explain. */
const MAX_ATTEMPTS = 3;
// The pump renews its hold at least this often, so a long wait never lets the lane lapse.
const RENEW_EVERY_MS = LANE_HOLD_MS / 3;
const NOT_CONNECTED = 'chat is not connected';

/**
 * A number's lane pump (docs/sending.md): sends its queued messages one at a time, in queue order
 * (a chat's messages in the order they were queued), each at the time the lane's pace reserves,
 * "typing…" first when the row asks. Runs while it holds the lane (one pump per number
 * cluster-wide) and there is work; a row is removed only after its outcome is recorded, so a
 * pump that dies mid-queue leaves every unsent row for the next one. WhatsApp's message id comes
 * from the row's id: a send the dead pump made but could not record goes out again with the same
 * id, which WhatsApp takes as the same message.
 */
@Injectable()
export class OutboundLanePump implements BeforeApplicationShutdown {
  private readonly logger = new Logger('OutboundLane');
  private readonly stop = new AbortController();

  constructor(
    private readonly rows: OutboundQueueRepository,
    private readonly lanes: OutboundLaneStore,
    private readonly settings: SendSettingsService,
    private readonly channels: ChannelRegistry,
    private readonly messages: MessageRepository,
    private readonly conversations: ConversationRepository,
    private readonly outcome: SendOutcomeService,
    private readonly metrics: OutboundMetrics,
  ) {}

  /** Shutting down: pumps give their lanes back at once; another worker's sweeper takes them. */
  beforeApplicationShutdown(): void {
    this.stop.abort();
  }

  async run(workspaceId: string, token: string): Promise<void> {
    const lane = new LaneHold(this.lanes, workspaceId, token, this.stop.signal);
    if (!(await lane.renew())) return;
    // Since when each channel of the number with sends waiting has been without a connection
    // (`down`: it says so; `dropping`: it says it is connected, but its sends find it is not).
    const down = new Map<ChannelName, number>();
    const dropping = new Map<ChannelName, number>();
    try {
      while (!this.stop.signal.aborted) {
        if (!(await lane.renew())) return;
        const { up, gone } = await this.channelsOf(workspaceId);
        for (const channel of up) down.delete(channel);
        const row = up.length > 0 ? await this.rows.nextDue(workspaceId, up) : null;
        if (row) {
          const gateway = this.channels.gatewayFor(row.channel)!;
          if (await this.sendOne(row, gateway, lane)) dropping.delete(row.channel);
          else {
            // The socket dropped between the check and the send: the row waits for it, as long as
            // for a channel that says it is disconnected.
            const since = dropping.get(row.channel) ?? Date.now();
            dropping.set(row.channel, since);
            if (Date.now() - since >= DISCONNECTED_GIVE_UP_MS) await this.settle(row, NOT_CONNECTED);
            else await this.rows.holdBack(workspaceId, 1000, row.messageId);
          }
          continue;
        }
        if (await this.giveUpOn(workspaceId, gone, down)) continue;
        const waits = await Promise.all([
          up.length > 0 ? this.rows.msUntilNext(workspaceId, up) : null,
          gone.length > 0 ? this.rows.msUntilNext(workspaceId, gone) : null,
        ]);
        if (waits.some((wait) => wait !== null)) {
          // Held back (the provider's back-off), or waiting for a connection.
          const soonest = Math.min(...waits.map((wait, i) => (wait === null ? Infinity : i === 1 ? Math.max(wait, 1000) : wait)));
          await lane.sleep(Math.max(50, Math.min(soonest, RENEW_EVERY_MS)));
          continue;
        }
        // Empty: give the lane back, then look again. A send queued meanwhile either saw the lane
        // free (and woke a pump of its own) or is seen here.
        await this.lanes.release(workspaceId, token);
        if ((await this.rows.msUntilNext(workspaceId, CHANNEL_NAMES)) === null || !(await lane.renew())) return;
      }
    } finally {
      if (this.stop.signal.aborted) await this.lanes.release(workspaceId, token).catch(() => undefined);
    }
  }

  /** The number's channels, connected or not. */
  private async channelsOf(workspaceId: string): Promise<{ up: ChannelName[]; gone: ChannelName[] }> {
    const up: ChannelName[] = [];
    const gone: ChannelName[] = [];
    for (const channel of CHANNEL_NAMES) {
      const gateway = this.channels.gatewayFor(channel);
      (gateway && (await gateway.isConnected(workspaceId)) ? up : gone).push(channel);
    }
    return { up, gone };
  }

  /**
   * A channel disconnected for DISCONNECTED_GIVE_UP_MS fails its first due send (the loop comes
   * back for the next one at once). True when one was failed.
   */
  private async giveUpOn(workspaceId: string, gone: readonly ChannelName[], down: Map<ChannelName, number>): Promise<boolean> {
    for (const channel of gone) {
      const waiting = await this.rows.nextDue(workspaceId, [channel]);
      if (!waiting) continue;
      const since = down.get(channel) ?? Date.now();
      down.set(channel, since);
      if (Date.now() - since < DISCONNECTED_GIVE_UP_MS) continue;
      await this.settle(waiting, NOT_CONNECTED);
      return true;
    }
    return false;
  }

  /** One row: wait for its turn, send, record. False when the channel turned out not connected. */
  private async sendOne(row: QueuedRow, gateway: ChannelGateway, lane: LaneHold): Promise<boolean> {
    const workspaceId = row.workspaceId;
    const message = await this.messages.findInConversation(workspaceId, row.conversationId, row.messageId);
    const conversation = await this.conversations.find(workspaceId, null, row.conversationId);
    const payload = await this.rows.payload(workspaceId, row.messageId);
    // Sent or failed already (a pump that died after recording), or deleted: nothing to send.
    if (!message || !conversation || payload === null || message.status !== 'pending') {
      await this.rows.remove(workspaceId, row.messageId);
      return true;
    }
    const send = decodeQueuedSend(payload);
    const target = toChannelConversation(conversation);
    if (gateway.paced) {
      const settings = await this.settings.effective(workspaceId);
      const typing = row.typing && gateway.typing ? typingPlan(send) : null;
      const at = await this.lanes.reserve(workspaceId, settings, Date.now() + (typing?.ms ?? 0));
      if (typing) {
        await lane.sleepUntil(at - typing.ms);
        if (this.stop.signal.aborted) return true;
        await gateway.typing!(workspaceId, target, typing.state).catch((error: unknown) => this.logger.debug({ err: error, workspaceId }, 'typing not shown'));
      }
      await lane.sleepUntil(at);
      if (this.stop.signal.aborted || !(await lane.renew())) return true;
    }
    const attempts = await this.rows.markAttempt(workspaceId, row.messageId);
    // Held through a long send (a large upload): the lane must not lapse while the row is in flight.
    return lane.keptDuring(async () => {
      let receipt;
      try {
        receipt = await dispatch(gateway, workspaceId, target, send);
      } catch (error) {
        return this.afterFailure(row, error, attempts);
      } finally {
        if (gateway.paced) await this.lanes.sent(workspaceId, Date.now()).catch(() => undefined);
      }
      await this.outcome.sent(workspaceId, message, conversation, row.channel, receipt);
      await this.rows.remove(workspaceId, row.messageId);
      this.metrics.sent(workspaceId, row.channel, Date.now() - row.queuedAt.getTime());
      return true;
    });
  }

  private async afterFailure(row: QueuedRow, error: unknown, attempts: number): Promise<boolean> {
    const workspaceId = row.workspaceId;
    if (error instanceof ChannelNotConnectedError) return false;
    if (error instanceof ChannelBusyError) {
      // The provider's back-off grows with each try of the same message.
      await this.rows.holdBack(workspaceId, error.retryAfterMs * attempts, error.scope === 'chat' ? row.messageId : null);
      return true;
    }
    if (error instanceof ChannelError) {
      await this.settle(row, error.message);
      return true;
    }
    this.logger.error({ err: error, workspaceId, messageId: row.messageId, attempts }, 'queued send failed');
    if (attempts >= MAX_ATTEMPTS) await this.settle(row, 'the channel failed to send the message');
    else await this.rows.holdBack(workspaceId, 2000 * 2 ** attempts, row.messageId);
    return true;
  }

  /** Records a queued send as failed and takes it off the queue. */
  private async settle(row: QueuedRow, reason: string): Promise<void> {
    const message = await this.messages.findInConversation(row.workspaceId, row.conversationId, row.messageId);
    const conversation = await this.conversations.find(row.workspaceId, null, row.conversationId);
    if (message && conversation && message.status === 'pending') await this.outcome.failed(row.workspaceId, message, conversation, reason);
    await this.rows.remove(row.workspaceId, row.messageId);
  }
}

/** The pump's hold on its lane, renewed while it waits; a wait ends early on shutdown. */
class LaneHold {
  constructor(
    private readonly lanes: OutboundLaneStore,
    private readonly workspaceId: string,
    private readonly token: string,
    private readonly signal: AbortSignal,
  ) {}

  renew(): Promise<boolean> {
    return this.lanes.hold(this.workspaceId, this.token);
  }

  async sleepUntil(at: number): Promise<void> {
    for (let left = at - Date.now(); left > 0 && !this.signal.aborted; left = at - Date.now()) {
      await this.sleep(Math.min(left, RENEW_EVERY_MS));
      if (!(await this.renew())) return;
    }
  }

  /** Renews the hold every few seconds while `work` runs. */
  async keptDuring<T>(work: () => Promise<T>): Promise<T> {
    const renewing = setInterval(() => void this.renew().catch(() => undefined), RENEW_EVERY_MS);
    try {
      return await work();
    } finally {
      clearInterval(renewing);
    }
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.signal.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }
}

export type { QueuedSend };
