import { Injectable, Logger } from '@nestjs/common';
import type { AutomationRow } from './automation.mapper.js';
import { AutomationRepository } from './automation.repository.js';
import { AutomationActions } from './automation-actions.js';
import { AutomationQueue } from './automation-queue.js';
import { AutomationTriggerRepository, type PendingTrigger } from './automation-trigger.repository.js';
import { ConditionEvaluator, factsOf } from './condition-evaluator.js';

/** A trigger pending this long has lost its job (or is late): the sweeper enqueues it again. */
export const STALLED_AFTER_MS = 30_000;
/** A trigger older than this is given up: a reply that late would confuse more than help. */
export const TRIGGER_MAX_AGE_MS = 10 * 60_000;
/** Done triggers are kept this long (for looking into what ran), then deleted. */
export const TRIGGER_KEEP_MS = 24 * 3_600_000;
const SWEEP_BATCH = 500;

/**
 * Evaluates a workspace's enabled automations for one new inbound message, in their stable order
 * (`AutomationRepository.triggered`), and runs the actions of those that match. Idempotent: each
 * automation claims its turn on the message before acting, so a retried job skips it.
 */
@Injectable()
export class AutomationEngine {
  private readonly logger = new Logger('Automations');

  constructor(
    private readonly automations: AutomationRepository,
    private readonly triggers: AutomationTriggerRepository,
    private readonly conditions: ConditionEvaluator,
    private readonly actions: AutomationActions,
    private readonly queue: AutomationQueue,
  ) {}

  async run(workspaceId: string, messageId: string): Promise<void> {
    const trigger = await this.triggers.pending(workspaceId, messageId);
    if (!trigger) return;
    // Messages the workspace sent never trigger anything (checked again: the row says inbound).
    if (trigger.message.direction === 'inbound') {
      const facts = factsOf(trigger.message, trigger.conversation);
      for (const automation of await this.automations.triggered(workspaceId, trigger.conversationCreated)) {
        if (trigger.claimed.includes(automation.id)) continue;
        if (!(await this.conditions.matches(automation.match, automation.conditions, facts))) continue;
        if (!(await this.triggers.claim(workspaceId, messageId, automation.id))) continue;
        await this.act(automation, trigger);
      }
    }
    await this.triggers.done(workspaceId, messageId);
  }

  /** Gives up on a trigger whose job failed for good. */
  async abandon(workspaceId: string, messageId: string): Promise<void> {
    await this.triggers.done(workspaceId, messageId);
  }

  /** The sweeper: enqueues stalled triggers again, gives up very old ones, forgets old done ones. */
  async sweep(): Promise<void> {
    const stalled = await this.triggers.stalledAcrossWorkspaces(STALLED_AFTER_MS, TRIGGER_MAX_AGE_MS, SWEEP_BATCH);
    for (const trigger of stalled) await this.queue.enqueue(trigger);
    const expired = await this.triggers.expireAcrossWorkspaces(TRIGGER_MAX_AGE_MS, TRIGGER_KEEP_MS);
    if (stalled.length || expired) this.logger.warn({ requeued: stalled.length, expired }, 'automation triggers swept');
  }

  /** Actions run in order; one that fails is logged and the next still runs. */
  private async act(automation: AutomationRow, trigger: PendingTrigger): Promise<void> {
    const { workspaceId, id: messageId } = trigger.message;
    for (const [index, action] of automation.actions.entries()) {
      const where = { workspaceId, messageId, automationId: automation.id, action: action.type, index };
      try {
        const outcome = await this.actions.run({ workspaceId, automationId: automation.id, message: trigger.message, index }, action);
        if (outcome !== 'done') this.logger.log({ ...where, outcome }, 'automation action skipped');
      } catch (error) {
        this.logger.warn({ ...where, err: error }, 'automation action failed');
      }
    }
  }
}
