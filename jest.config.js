// Jest 30 in native ESM mode (run through `npm test`, which sets --experimental-vm-modules).
// @swc/jest strips types and emits legacy decorators with metadata, which Nest's DI needs.
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
  sourceMaps: 'inline',
};

export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  setupFilesAfterEnv: ['<rootDir>/test/support/console-guard.setup.ts'],
  // A test app's setup (a database from the migrated template, Nest's boot) took over 30 s in a
  // clean-clone CI run with both cores saturated on a slow day (two suites' beforeAll timed out).
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file's ESM module graph stays in its worker's heap (about 40 MB a file: 1 GB after
  // 25 files, more than 2 GB by the end of a run, with garbage collection slowing every later
  // file). A worker past this after a file is replaced by a fresh one (about a second).
  workerIdleMemoryLimit: '800MB',
};
