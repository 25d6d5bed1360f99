// `npm run test:faults`: the fault-injection suite (test/faults). It runs the built service
// (dist/) as separate processes against a private Postgres and Redis it starts itself, so it needs
// neither the shared servers nor `npm test`'s global set-up. One file at a time, in one worker.
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['<rootDir>/test/faults/**/*.fault.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
  testTimeout: 120_000,
  maxWorkers: 1,
};
