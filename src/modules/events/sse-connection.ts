import type { Response } from 'express';
import { compareEventIds, ZERO_EVENT_ID } from './event-id.js';
import { EVENTS_UNAVAILABLE, type LiveEventSink, type LiveEventViewer, type SerializedLiveEvent, shownName } from './live-event.types.js';
import type { LiveEventsOptions } from './live-events.options.js';
import type { StreamCredential } from './stream-credential.js';

export const KEEP_ALIVE_COMMENT = ': keep-alive\n\n';

/**
 * One client's event stream on an Express response. Live events that arrive while the replay is
 * still being read are held back, then everything is written in id order exactly once: the
 * publish script makes pub/sub order equal id order, so "id <= cursor" can only be a duplicate.
 * Events the viewer may not see (an agent, a conversation assigned to someone else) are skipped
 * on the same path, replayed or live, after moving the cursor past them.
 */
export class SseConnection implements LiveEventSink {
  private state: 'pending' | 'open' | 'closed' = 'pending';
  private held: SerializedLiveEvent[] = [];
  private cursor = ZERO_EVENT_ID;
  private keepAlive: NodeJS.Timeout | undefined;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    private readonly res: Response,
    private readonly options: LiveEventsOptions,
    private readonly viewer: LiveEventViewer,
    readonly credential: StreamCredential,
  ) {
    // The client went away (or the socket broke): stop timers and leave the fan-out.
    res.on('close', () => this.close());
  }

  get closed(): boolean {
    return this.state === 'closed';
  }

  /** Runs once when the connection ends, whoever ends it. */
  onClose(listener: () => void): void {
    if (this.state === 'closed') listener();
    else this.closeListeners.push(listener);
  }

  deliver(event: SerializedLiveEvent): void {
    if (this.state === 'pending') this.held.push(event);
    else if (this.state === 'open') this.send(event);
  }

  /**
   * Sends the headers, the replay (events up to `head`), then what arrived meanwhile. From here
   * on only events newer than `head` go out.
   */
  open(head: string, replay: SerializedLiveEvent[]): void {
    if (this.state !== 'pending') return;
    this.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: compressing proxies would otherwise buffer the stream.
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // nginx buffers responses unless told not to; events would arrive in bursts.
      'X-Accel-Buffering': 'no',
    });
    this.res.flushHeaders();
    // A first chunk right away lets clients (and proxies) see the stream is up.
    this.write(`retry: ${this.options.retryMs}\n: connected\n\n`);
    for (const event of replay) this.send(event);
    if (compareEventIds(head, this.cursor) > 0) this.cursor = head;
    this.state = 'open';
    const held = this.held;
    this.held = [];
    for (const event of held) this.send(event);
    if (this.state !== 'open') return;
    this.keepAlive = setInterval(() => this.write(KEEP_ALIVE_COMMENT), this.options.keepAliveMs);
    this.keepAlive.unref();
  }

  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.held = [];
    clearInterval(this.keepAlive);
    if (!this.res.writableEnded && !this.res.destroyed) {
      // Closed before the stream started (shutdown, Redis lost): answer instead of hanging.
      if (this.res.headersSent) this.res.end();
      else this.res.status(503).json({ error: EVENTS_UNAVAILABLE });
    }
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  private send(event: SerializedLiveEvent): void {
    if (compareEventIds(event.id, this.cursor) <= 0) return;
    // The cursor moves past hidden events too: it is this connection's position in the stream.
    this.cursor = event.id;
    const name = shownName(this.viewer, event);
    if (name === null) return;
    this.write(`id: ${event.id}\nevent: ${name}\ndata: ${event.json}\n\n`);
  }

  private write(chunk: string): void {
    if (this.state === 'closed' || this.res.writableEnded) return;
    this.res.write(chunk);
    // A client that cannot keep up would make us buffer without bound; it is cheaper to drop it
    // and let it resume from its Last-Event-ID.
    if (this.res.writableLength > this.options.maxBufferedBytes) this.close();
  }
}
