import { parseArgs } from 'node:util';
import type { Type } from '@nestjs/common';
import { ApiError } from '../infra/http/api-error.js';
import { createValidationPipe } from '../infra/http/validation.pipe.js';
import { CreateApiKeyDto } from '../modules/auth/api-keys/dto/create-api-key.dto.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../modules/tenants/entities/workspace.entity.js';
import { WorkspaceNameDto } from '../modules/tenants/dto/workspace.dto.js';
import { OperatorError, type OperatorService } from './operator.service.js';
import { JOB_STATES } from '../infra/queue/queue-metrics.js';
import { QueueName } from '../infra/queue/queue-names.js';
import { type JobState, QueueInspector } from './queue-inspector.service.js';
import type { SessionCommands } from './session-commands.service.js';

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands (each prints one JSON object on stdout):
  subscription <workspace_id> <status>
      Sets the workspace's subscription status: ${SUBSCRIPTION_STATUSES.join(', ')}.
  create-workspace --name <name> --owner-email <email> [--owner-password <password>]
                   [--owner-name <name>] [--subscription <status>]
      Creates a workspace owned by the user with that email, creating the user (verified) when
      missing, which then needs --owner-password (8+ characters). --subscription defaults to none.
  issue-key <workspace_id> [--scope read|write|full|full_access] [--name <name>]
      Issues an API key (scope defaults to read, name to "cli") and prints it. The key is shown
      this once: store it now.

Queues (BullMQ; job payloads carry ids only):
  queues
      Every queue with its job counts per state, and whether it is paused.
  queue-jobs <queue> [--state ${JOB_STATES.join('|')}] [--limit <1-1000>]
      The newest jobs of a queue in one state (default failed, 20), with attempts, the failure
      reason and the top of its stack trace.
  queue-retry <queue> (<job_id>... | --all-failed)
      Puts failed jobs back in the queue; their attempts start over.
  queue-remove <queue> <job_id>...
      Deletes jobs that are not running (e.g. a failed job that must never run again).
  Queue names: ${Object.values(QueueName).join(', ')}.

WhatsApp scan sessions (what the Console's WhatsApp page does; a worker holds each socket):
  session-status <workspace_id>
      The session's state: connected, logged_in, qr_pending, state (stopped, starting, qr,
      pairing_code, passkey_required, passkey_assertion, passkey_confirmation, connecting,
      connected, reconnecting, logged_out, failed),
      since, error.
  session-stop <workspace_id>
      Closes the socket and keeps the link and its keys: nothing reconnects until a restart (or
      the Console's Reconnect). Prints the state afterwards.
  session-restart <workspace_id>
      Stops, then connects again: a linked number comes back on its keys, without a QR code.
  placement
      The live workers (id, capacity, sockets held, leaving), and for every linked number the
      worker holding it, its home among the workers and whether it is moving; with the counts of
      numbers moving and of numbers no worker has room for (unplaced).

  help
      Shows this text.`;

/** A mistake in the command line itself: usage is printed, exit code 2. */
export class UsageError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function workspaceId(value: string | undefined): string {
  if (!value) throw new UsageError('missing <workspace_id>');
  if (!UUID.test(value)) throw new OperatorError(`invalid workspace id: ${value}`);
  return value.toLowerCase();
}

function subscriptionStatus(value: string | undefined): SubscriptionStatus {
  const status = SUBSCRIPTION_STATUSES.find((s) => s === value);
  if (!status) throw new UsageError(`status must be one of ${SUBSCRIPTION_STATUSES.join(', ')} (got ${JSON.stringify(value ?? null)})`);
  return status;
}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`missing ${option}`);
  return value;
}

/**
 * Checks values with the API's own DTO and validation pipe, so a name the API refuses (blank,
 * over 100 characters) is refused here with the same text, and is trimmed the same way.
 */
async function validated<T extends object>(dto: Type<T>, value: Record<string, unknown>): Promise<T> {
  try {
    return (await createValidationPipe().transform(value, { type: 'body', metatype: dto })) as T;
  } catch (error) {
    if (error instanceof ApiError) throw new UsageError(error.text);
    throw error;
  }
}

function queueName(value: string | undefined): QueueName {
  if (!value) throw new UsageError('missing <queue>');
  const name = QueueInspector.queueName(value);
  if (!name) throw new UsageError(`unknown queue: ${value} (one of ${Object.values(QueueName).join(', ')})`);
  return name;
}

function jobState(value: string): JobState {
  const state = JOB_STATES.find((s) => s === value);
  if (!state) throw new UsageError(`--state must be one of ${JOB_STATES.join(', ')} (got ${JSON.stringify(value)})`);
  return state;
}

function limit(value: string): number {
  if (!/^\d{1,4}$/.test(value) || Number(value) < 1 || Number(value) > 1000) throw new UsageError(`--limit must be 1-1000 (got ${JSON.stringify(value)})`);
  return Number(value);
}

/** Runs one command line (without `node cli.js`) and returns what to print. */
export async function runCommand(argv: string[], operator: OperatorService, queues?: QueueInspector, sessions?: SessionCommands): Promise<object> {
  try {
    const [command, ...rest] = argv;
    if (command?.startsWith('queue')) {
      if (!queues) throw new Error('queue commands need the queue inspector');
      return await dispatchQueues(command, rest, queues);
    }
    if (command === 'placement') {
      if (!sessions) throw new Error('placement needs the session controls');
      parseArgs({ args: rest, strict: true });
      return await sessions.placement();
    }
    if (command?.startsWith('session-')) {
      if (!sessions) throw new Error('session commands need the session controls');
      return await dispatchSessions(command, rest, sessions);
    }
    return await dispatch(argv, operator);
  } catch (error) {
    // parseArgs reports unknown or incomplete options as TypeErrors with an ERR_PARSE_ARGS_* code.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

async function dispatchQueues(command: string, rest: string[], queues: QueueInspector): Promise<object> {
  switch (command) {
    case 'queues': {
      parseArgs({ args: rest, strict: true });
      return { queues: await queues.summary() };
    }
    case 'queue-jobs': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        strict: true,
        options: { state: { type: 'string', default: 'failed' }, limit: { type: 'string', default: '20' } },
      });
      if (positionals.length !== 1) throw new UsageError('queue-jobs takes <queue>');
      const name = queueName(positionals[0]);
      const state = jobState(values.state);
      return { queue: name, state, jobs: await queues.jobs(name, state, limit(values.limit)) };
    }
    case 'queue-retry': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        strict: true,
        options: { 'all-failed': { type: 'boolean', default: false } },
      });
      const [name, ...ids] = positionals;
      if (values['all-failed'] === ids.length > 0) throw new UsageError('queue-retry takes <queue> and either job ids or --all-failed');
      return queues.retry(queueName(name), ids);
    }
    case 'queue-remove': {
      const { positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true });
      const [name, ...ids] = positionals;
      if (ids.length === 0) throw new UsageError('queue-remove takes <queue> <job_id>...');
      return queues.remove(queueName(name), ids);
    }
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

async function dispatchSessions(command: string, rest: string[], sessions: SessionCommands): Promise<object> {
  const { positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError(`${command} takes <workspace_id>`);
  const workspace = workspaceId(positionals[0]);
  switch (command) {
    case 'session-status':
      return sessions.status(workspace);
    case 'session-stop':
      return sessions.stop(workspace);
    case 'session-restart':
      return sessions.restart(workspace);
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

async function dispatch(argv: string[], operator: OperatorService): Promise<object> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'subscription': {
      const { positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true });
      if (positionals.length !== 2) throw new UsageError('subscription takes <workspace_id> <status>');
      return operator.setSubscription(workspaceId(positionals[0]), subscriptionStatus(positionals[1]));
    }
    case 'create-workspace': {
      const { values } = parseArgs({
        args: rest,
        strict: true,
        options: {
          name: { type: 'string' },
          'owner-email': { type: 'string' },
          'owner-password': { type: 'string' },
          'owner-name': { type: 'string' },
          subscription: { type: 'string', default: 'none' },
        },
      });
      const { name } = await validated(WorkspaceNameDto, { name: required(values.name, '--name') });
      return operator.createWorkspace({
        name,
        ownerEmail: required(values['owner-email'], '--owner-email'),
        ownerPassword: values['owner-password'],
        ownerName: values['owner-name'],
        subscription: subscriptionStatus(values.subscription),
      });
    }
    case 'issue-key': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        strict: true,
        options: { scope: { type: 'string', default: 'read' }, name: { type: 'string', default: 'cli' } },
      });
      if (positionals.length !== 1) throw new UsageError('issue-key takes <workspace_id>');
      const workspace = workspaceId(positionals[0]);
      const { name, scope } = await validated(CreateApiKeyDto, { name: required(values.name, '--name'), scope: values.scope });
      return operator.issueKey(workspace, name, scope);
    }
    case undefined:
    case 'help':
    case '--help':
      throw new UsageError('');
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}
