// Every test file's console gets the service's console guard (src/infra/logging/console-guard.ts)
// before its first line runs: tests that drive Baileys or libsignal without booting the app (the
// simulator's own tests, the driver's) would otherwise print whole Signal session records, keys
// included, into the suite's output. A test app, once booted, points the guard at its own logger.
import pino from 'pino';
import { installConsoleGuard } from '../../src/infra/logging/console-guard.js';

installConsoleGuard(pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
