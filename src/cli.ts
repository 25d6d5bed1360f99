import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { USAGE, UsageError, runCommand } from './cli/cli-commands.js';
import { OperatorModule } from './cli/operator.module.js';
import { OperatorError, OperatorService } from './cli/operator.service.js';
import { QueueInspector } from './cli/queue-inspector.service.js';
import { SessionCommands } from './cli/session-commands.service.js';
import { ConfigError, loadConfig, loadDotEnv } from './infra/config/app-config.js';
import { installConsoleGuard } from './infra/logging/console-guard.js';
import { createRootLogger } from './infra/logging/logging.module.js';

/**
 * `npm run cli -- <command>`: operator commands for scripted set-ups. Prints one JSON object on
 * stdout; errors go to stderr as one `{"error": "..."}` line with exit code 1 (2 for a bad command
 * line; 78 for bad configuration). Nest's own logs are off so stdout stays machine-readable.
 */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    console.log(USAGE);
    return 0;
  }
  loadDotEnv();
  const config = loadConfig();
  // As in the service (console-guard.ts), with the log lines on stderr: stdout is the command's answer.
  installConsoleGuard(createRootLogger(config, pino.destination(2)));
  const sessions = (argv[0]?.startsWith('session-') ?? false) || argv[0] === 'placement';
  const context = await NestFactory.createApplicationContext(OperatorModule.forCli(config, { sessions }), { logger: false, abortOnError: false });
  try {
    const output = await runCommand(argv, context.get(OperatorService), context.get(QueueInspector), sessions ? context.get(SessionCommands) : undefined);
    console.log(JSON.stringify(output, null, 2));
    return 0;
  } finally {
    await context.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    // One JSON line, as every error; `help` prints the usage (stdout stays empty on failure).
    console.error(JSON.stringify({ error: `${error.message || 'invalid command line'} (npm run cli -- help lists the commands)` }));
    process.exitCode = 2;
  } else if (error instanceof ConfigError) {
    console.error(error.message);
    process.exitCode = 78; // EX_CONFIG
  } else if (error instanceof OperatorError) {
    console.error(JSON.stringify({ error: error.message }));
    process.exitCode = 1;
  } else {
    console.error(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    process.exitCode = 1;
  }
}
