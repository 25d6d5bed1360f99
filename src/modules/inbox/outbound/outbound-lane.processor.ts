import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { QueueName } from '../../../infra/queue/queue-names.js';
import { OutboundLanePump } from './outbound-lane.pump.js';
import type { OutboundLaneJob } from './outbound-queue.service.js';

// Pumps mostly wait for their number's next turn: many run side by side in one worker.
const LANES_PER_WORKER = 256;

/**
 * Runs a number's lane pump (docs/sending.md). A job whose pump dies with its worker is taken up
 * again by BullMQ's stalled-job check, or the sweeper adds a new one once the lane's hold lapses:
 * either way one pump holds the lane.
 */
@Processor(QueueName.OutboundLane, { concurrency: LANES_PER_WORKER })
export class OutboundLaneProcessor extends WorkerHost {
  constructor(private readonly pump: OutboundLanePump) {
    super();
  }

  async process(job: Job<OutboundLaneJob>): Promise<void> {
    await this.pump.run(job.data.workspaceId, job.data.token);
  }
}
