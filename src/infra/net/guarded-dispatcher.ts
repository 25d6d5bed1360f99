import { Agent, buildConnector, DecoratorHandler, type Dispatcher } from 'undici';
import { AddressRefusedError, checkHostName, guardedLookup, openLookup } from './guarded-lookup.js';

export interface GuardedDispatcherOptions {
  /** Skip the address policy (the operator allowed private addresses for this use). */
  allowPrivate: boolean;
  /** The CAs TLS connections trust instead of the system's (omitted: the system's). */
  ca?: readonly string[];
}

/**
 * An undici dispatcher (for `fetch(url, { dispatcher })`) for URLs the caller does not control:
 * every connection it opens, the first and each redirect's, goes only to a public address unless
 * `allowPrivate`. A name is resolved once by `guardedLookup` and the socket connects to exactly the
 * checked addresses; an IP literal (any spelling) or `localhost`, which never reaches a lookup, is
 * checked here before any socket exists. A refusal fails the request (`fetch` rejects with a
 * `TypeError` whose `cause` is the `AddressRefusedError`: see `watchRefusals`). Pooled sockets
 * keep the address checked when they connected; a dispatcher has one policy, so a socket opened
 * with private addresses allowed is never reused by one that refuses them.
 */
export function createGuardedDispatcher({ allowPrivate, ca }: GuardedDispatcherOptions): Dispatcher {
  const connect = buildConnector({ ...(ca ? { ca: [...ca] } : {}), lookup: allowPrivate ? openLookup : guardedLookup });
  return new Agent({
    connect: (options, callback) => {
      if (!allowPrivate) {
        try {
          checkHostName(options.hostname);
        } catch (error) {
          return callback(error as Error, null);
        }
      }
      connect(options, callback);
    },
  });
}

// undici's types declare DecoratorHandler without the methods it forwards to the wrapped handler.
const Forwarding = DecoratorHandler as unknown as new (handler: Dispatcher.DispatchHandlers) => Dispatcher.DispatchHandlers;

/** A request's handler that also hands an address refusal that fails the request to `seen`. */
class RefusalWatching extends Forwarding {
  constructor(
    handler: Dispatcher.DispatchHandlers,
    private readonly seen: (refusal: AddressRefusedError) => void,
  ) {
    super(handler);
  }

  override onError(error: Error): void {
    if (error instanceof AddressRefusedError) this.seen(error);
    super.onError?.(error);
  }
}

/** A dispatcher for one fetch, and the address refusal that failed it, if one did. */
export interface RefusalWatch {
  dispatcher: Dispatcher;
  refusal(): AddressRefusedError | null;
}

/**
 * `dispatcher` for one fetch (its redirects included) that remembers the `AddressRefusedError`
 * that failed it. `fetch` rejects with `TypeError: fetch failed` and the refusal as its `cause`,
 * but a cause from another JS realm (Jest's VM contexts, say) reaches the caller as a plain
 * `Error` holding its text: the handler of each request, on this side, still sees the original.
 * Sockets stay pooled in `dispatcher`.
 */
export function watchRefusals(dispatcher: Dispatcher): RefusalWatch {
  let refused: AddressRefusedError | null = null;
  const seen = (refusal: AddressRefusedError): void => void (refused ??= refusal);
  const watched = dispatcher.compose((dispatch) => (options, handler) => dispatch(options, new RefusalWatching(handler, seen)));
  return { dispatcher: watched, refusal: () => refused };
}
