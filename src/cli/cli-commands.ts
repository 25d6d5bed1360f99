import { parseArgs } from 'node:util';
import type { Type } from '@nestjs/common';
import { ApiError } from '../infra/http/api-error.js';
import { createValidationPipe } from '../infra/http/validation.pipe.js';
import { CreateApiKeyDto } from '../modules/auth/api-keys/dto/create-api-key.dto.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../modules/tenants/entities/workspace.entity.js';
import { WorkspaceNameDto } from '../modules/tenants/dto/workspace.dto.js';
import { OperatorError, type OperatorService } from './operator.service.js';

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

/** Runs one command line (without `node cli.js`) and returns what to print. */
export async function runCommand(argv: string[], operator: OperatorService): Promise<object> {
  try {
    return await dispatch(argv, operator);
  } catch (error) {
    // parseArgs reports unknown or incomplete options as TypeErrors with an ERR_PARSE_ARGS_* code.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
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
