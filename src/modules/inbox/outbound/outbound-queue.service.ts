import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import type { SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { ChannelName } from '../../channels/channel-gateway.port.js';
import { OutboundLaneStore } from './outbound-lane.store.js';
import { OutboundQueueRepository } from './outbound-queue.repository.js';
import { encodeQueuedSend, type QueuedSend } from './queued-send.codec.js';

/** Payload of an `outbound-lane` job: the number, and the token its pump holds the lane with. */
export interface OutboundLaneJob {
  workspaceId: string;
  token: string;
}

/** What `GET /api/chat/queue` answers. */
export interface QueueBody {
  depth: number;
  oldest_queued_at: string | null;
  messages: { id: string; conversation_id: string; position: number; queued_at: string; not_before: string | null }[];
}

// The places `GET /api/chat/queue` lists.
const LISTED = 500;

/**
 * The number's outbound queue (docs/sending.md): a send is queued in its message's transaction,
 * and the lane's pump is woken after the commit. One pump per number cluster-wide (the lane's
 * hold in Redis); a pump that died is replaced by the sweeper once its hold lapses.
 */
@Injectable()
export class OutboundQueueService {
  private readonly logger = new Logger('OutboundQueue');

  constructor(
    private readonly rows: OutboundQueueRepository,
    private readonly lanes: OutboundLaneStore,
    @InjectQueue(QueueName.OutboundLane) private readonly jobs: Queue<OutboundLaneJob>,
  ) {}

  async enqueue(
    workspaceId: string,
    row: { messageId: string; conversationId: string; channel: ChannelName; send: QueuedSend; typing: boolean; delayMs?: number },
    tx?: SqlExecutor,
  ): Promise<number> {
    return this.rows.insert(workspaceId, { ...row, payload: encodeQueuedSend(row.send) }, tx);
  }

  hasQueued(workspaceId: string, conversationId: string): Promise<boolean> {
    return this.rows.hasQueued(workspaceId, conversationId);
  }

  position(workspaceId: string, messageId: string): Promise<number | null> {
    return this.rows.position(workspaceId, messageId);
  }

  /**
   * Wakes the number's pump: a job is added only when the lane is free (no pump holds it). A
   * failure here loses nothing: the row is committed and the sweeper wakes the lane.
   */
  async kick(workspaceId: string): Promise<void> {
    const token = randomUUID();
    try {
      if (!(await this.lanes.hold(workspaceId, token))) return;
      await this.jobs.add('pump', { workspaceId, token }, { jobId: `lane-${workspaceId}-${token}`, attempts: 1, removeOnComplete: true, removeOnFail: 100 });
    } catch (error) {
      this.logger.warn({ err: error, workspaceId }, 'could not wake the outbound lane; the sweeper will');
    }
  }

  async body(workspaceId: string): Promise<QueueBody> {
    const [depth, places] = await Promise.all([this.rows.depth(workspaceId), this.rows.places(workspaceId, LISTED)]);
    const now = Date.now();
    return {
      depth: depth.depth,
      oldest_queued_at: depth.oldestQueuedAt?.toISOString() ?? null,
      messages: places.map((place) => ({
        id: place.id,
        conversation_id: place.conversationId,
        position: place.position,
        queued_at: place.queuedAt.toISOString(),
        not_before: place.notBefore.getTime() > now ? place.notBefore.toISOString() : null,
      })),
    };
  }
}
