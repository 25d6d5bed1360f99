import type { LookupAddress } from 'node:dns';
import type { Resolve } from '../../src/infra/net/guarded-lookup.js';

/**
 * A resolver (for `useTestResolver`) that answers each name from `names`, asynchronously like
 * the system's, and ENOTFOUND for any other name.
 */
export function fixedResolver(names: Readonly<Record<string, readonly string[]>>): Resolve {
  return (hostname, _options, callback) => {
    const answer = names[hostname];
    if (!answer) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    setImmediate(() =>
      callback(
        null,
        answer.map((address): LookupAddress => ({ address, family: 4 })),
      ),
    );
  };
}
