import type { ChildProcess } from 'node:child_process';

/** What a spawned service printed, read as it comes (stdout and stderr together). */
export interface ServiceOutput {
  output: () => string;
  /** Resolves with the first output line containing `text`; rejects if the process exits first. */
  waitFor: (text: string) => Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Collects `child`'s output from now on; every test that runs the built service reads it this way. */
export function watchOutput(child: ChildProcess): ServiceOutput {
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const waitFor = (text: string): Promise<string> =>
    new Promise((found, failed) => {
      const check = (): void => {
        const line = output.split('\n').find((l) => l.includes(text));
        if (line === undefined) return;
        listeners.delete(check);
        found(line);
      };
      listeners.add(check);
      check();
      void exited.then(({ code }) => failed(new Error(`exited (${code}) before printing "${text}":\n${output}`)));
    });
  return { output: () => output, waitFor, exited };
}
