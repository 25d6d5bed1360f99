import { it } from '@jest/globals';

/**
 * The scenarios of one fault file: `scenario(name, work)` is a test that marks the run failed when
 * `work` throws, so the file's `afterAll` can print the processes' logs (`dumpLogsIfFailed`).
 */
export function faultScenarios(defaultTimeoutMs: number): {
  scenario: (name: string, work: () => Promise<void>, timeoutMs?: number) => void;
  readonly failed: () => boolean;
} {
  let failed = false;
  return {
    scenario: (name, work, timeoutMs = defaultTimeoutMs) => {
      it(
        name,
        async () => {
          try {
            await work();
          } catch (error) {
            failed = true;
            throw error;
          }
        },
        timeoutMs,
      );
    },
    failed: () => failed,
  };
}
