import { createRequire } from 'node:module';
import pino, { type DestinationStream } from 'pino';
import type PinoPretty from 'pino-pretty';

const require = createRequire(import.meta.url);

/**
 * LOG_FORMAT=pretty: each line as `[12:00:01.234] INFO: [Bootstrap] all listening on …`, its other
 * fields on the same line, for a developer's terminal (coloured when it is one). pino-pretty is
 * loaded only then, and formats in this thread, writing synchronously like the JSON default,
 * so the last line before an exit (a start-up failure) is never lost in a transport's worker.
 */
export function prettyStream(): DestinationStream {
  const { prettyFactory } = require('pino-pretty') as typeof PinoPretty;
  const format = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    // `startup`: the summary line's fields, which its message already says.
    ignore: 'pid,hostname,role,context,startup',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  });
  const out = pino.destination({ dest: 1, sync: true });
  return { write: (line: string) => out.write(format(line)) };
}
