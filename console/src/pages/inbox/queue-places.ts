import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Message, SendQueue } from '../../api/types.js';
import { useLiveEvent } from '../../live.js';

// While a shown message waits, its place is refreshed this often (and on every message event).
const REFRESH_MS = 5000;

/**
 * The places of the shown messages that wait in the number's outbound queue (message id → 1 =
 * next), from `GET /api/chat/queue`: a number linked by QR code sends at a human pace.
 */
export function useQueuePlaces(messages: readonly Message[]): ReadonlyMap<string, number> {
  const waiting = messages.some((m) => m.direction === 'outbound' && m.status === 'pending');
  const [places, setPlaces] = useState<ReadonlyMap<string, number>>(new Map());
  const [tick, setTick] = useState(0);
  useLiveEvent<Message>('message.updated', () => setTick((n) => n + 1));
  useLiveEvent<Message>('message.created', () => setTick((n) => n + 1));
  useEffect(() => {
    if (!waiting) {
      setPlaces(new Map());
      return;
    }
    let live = true;
    const load = (): void =>
      void api
        .get<SendQueue>('/api/chat/queue')
        .then((queue) => live && setPlaces(new Map(queue.messages.map((m) => [m.id, m.position]))))
        .catch(() => undefined);
    load();
    const timer = setInterval(load, REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [waiting, tick]);
  return places;
}

/** "queued · 3rd" for a message in the queue. */
export function queuedText(position: number): string {
  const tens = position % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[position % 10] ?? 'th');
  return position === 1 ? 'queued · next' : `queued · ${position}${suffix}`;
}
