import type { TypingState } from '../../channels/channel-gateway.port.js';
import type { QueuedSend } from './queued-send.codec.js';

// A person types about 25 characters a second on a phone; shorter and longer texts are held to
// a plausible least and a wait nobody minds.
const MS_PER_CHARACTER = 40;
const LEAST_MS = 800;
const MOST_MS = 6000;

/** "Typing…" before a queued send: how long, and which state (recording before a voice note). */
export function typingPlan(send: QueuedSend): { state: TypingState; ms: number } {
  if (send.kind === 'template') return { state: 'composing', ms: clamp(send.template.body.length * MS_PER_CHARACTER) };
  const outgoing = send.outgoing;
  if (outgoing.type === 'voice') return { state: 'recording', ms: clamp((outgoing.durationS ?? 0) * 1000) };
  const text = outgoing.type === 'text' ? outgoing.body : 'caption' in outgoing ? outgoing.caption : '';
  return { state: 'composing', ms: clamp(text.length * MS_PER_CHARACTER) };
}

const clamp = (ms: number): number => Math.min(MOST_MS, Math.max(LEAST_MS, Math.round(ms)));
