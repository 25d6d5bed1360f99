import type { JSX } from 'preact';
import type { MessageReaction } from '../../api/types.js';

/** The emoji the picker offers: WhatsApp's own quick row. */
export const QUICK_EMOJI = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

interface ReactionGroup {
  emoji: string;
  count: number;
  mine: boolean;
}

/** One entry per emoji, in the order they were first given, with how many gave it and whether we did. */
export function groupReactions(reactions: readonly MessageReaction[], ownJids: ReadonlySet<string>): ReactionGroup[] {
  const groups = new Map<string, ReactionGroup>();
  for (const r of reactions) {
    if (!r.emoji) continue;
    const group = groups.get(r.emoji) ?? { emoji: r.emoji, count: 0, mine: false };
    group.count += 1;
    group.mine ||= ownJids.has(bareJid(r.sender_jid));
    groups.set(r.emoji, group);
  }
  return [...groups.values()];
}

/** A jid without its device part (`4915…:12@s.whatsapp.net` → `4915…@s.whatsapp.net`): one person. */
export function bareJid(jid: string): string {
  const at = jid.indexOf('@');
  const user = at < 0 ? jid : jid.slice(0, at);
  const colon = user.indexOf(':');
  return colon < 0 ? jid : `${user.slice(0, colon)}${at < 0 ? '' : jid.slice(at)}`;
}

/** Our current emoji on a message ('' when we have not reacted). */
export function ownReaction(reactions: readonly MessageReaction[], ownJids: ReadonlySet<string>): string {
  return reactions.find((r) => r.emoji && ownJids.has(bareJid(r.sender_jid)))?.emoji ?? '';
}

/**
 * The reactions under a bubble, with their counts. Tapping one gives the same emoji, or takes
 * ours back when it is ours (as in WhatsApp); without `onReact` (a message that cannot be reacted
 * to) they are only shown.
 */
export function ReactionList({ groups, onReact }: { groups: ReactionGroup[]; onReact?: (emoji: string) => void }): JSX.Element | null {
  if (groups.length === 0) return null;
  return (
    <ul class="reactions" aria-label="Reactions">
      {groups.map((g) => {
        const label = `${g.emoji} ${g.count}`;
        const title = g.mine ? `${g.count === 1 ? 'You' : `You and ${g.count - 1} more`} reacted ${g.emoji}` : `${g.count} reacted ${g.emoji}`;
        return (
          <li key={g.emoji}>
            {onReact ? (
              <button
                type="button"
                class={`reaction${g.mine ? ' reaction-mine' : ''}`}
                title={g.mine ? `${title}: tap to remove` : title}
                aria-pressed={g.mine}
                onClick={() => onReact(g.mine ? '' : g.emoji)}
              >
                {label}
              </button>
            ) : (
              <span class={`reaction${g.mine ? ' reaction-mine' : ''}`} title={title}>
                {label}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The row of emoji the bubble's React button opens, inside the bubble (so it fits any screen). Our
 * current emoji is marked, and picking it again takes it back.
 */
export function ReactionChoices({ current, onPick, onClose }: { current: string; onPick: (emoji: string) => void; onClose: () => void }): JSX.Element {
  return (
    <div
      class="reaction-choices"
      role="group"
      aria-label="Pick a reaction"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      {QUICK_EMOJI.map((emoji) => (
        <button
          key={emoji}
          type="button"
          class={`reaction-choice${emoji === current ? ' reaction-mine' : ''}`}
          aria-label={emoji === current ? `Remove your ${emoji} reaction` : `React with ${emoji}`}
          aria-pressed={emoji === current}
          onClick={() => {
            onClose();
            onPick(emoji === current ? '' : emoji);
          }}
        >
          {emoji}
        </button>
      ))}
    </div>
  );
}
