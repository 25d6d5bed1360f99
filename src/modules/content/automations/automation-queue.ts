import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QueueName } from '../../../infra/queue/queue-names.js';
import type { TriggerRef } from './automation-trigger.repository.js';

/** Job names of the `automations` queue. */
export const RUN_JOB = 'run';
export const SWEEP_JOB = 'sweep';

@Injectable()
export class AutomationQueue {
  constructor(@InjectQueue(QueueName.Automations) private readonly queue: Queue<TriggerRef>) {}

  /** Keyed by message: enqueueing a trigger again (the sweeper) adds nothing while its job exists. */
  async enqueue(trigger: TriggerRef): Promise<void> {
    await this.queue.add(RUN_JOB, { workspaceId: trigger.workspaceId, messageId: trigger.messageId }, { jobId: `automation-${trigger.messageId}` });
  }
}
