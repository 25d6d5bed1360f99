import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { QuickReply } from '../../api/team-types.js';
import type { Member } from '../../api/types.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { ErrorNote } from '../../ui/kit.js';

const SHOWN = 8;

interface Option {
  id: string;
  key: string;
  text: string;
}

export interface Pickers {
  /** Handles the picker's keys (arrows, Enter, Tab, Escape) while it is open; true: the key was its own. */
  onKeyDown: (event: KeyboardEvent) => boolean;
  /** The user ids of the members still @mentioned in `text`. */
  mentionIds: (text: string) => string[];
  /** Forgets the mentions (after a note went out). */
  reset: () => void;
  picker: JSX.Element | null;
}

export const memberLabel = (m: Member): string => m.name || m.email;

/**
 * The composer's two pickers. `/` at the start of an empty reply box lists the quick replies
 * (filtered as one types; Enter puts the reply, filled in for this conversation, in the box);
 * `@` in a note lists the members to mention.
 */
export function useComposerPickers(props: {
  conversationId: string;
  text: string;
  caret: number;
  noting: boolean;
  members: Member[];
  setText: (text: string, caret?: number) => void;
}): Pickers {
  const { conversationId, text, caret, noting, members, setText } = props;
  const replies = useLoad(() => api.get<QuickReply[]>('/api/quick-replies'), []);
  const [active, setActive] = useState(0);
  // The text the picker was dismissed at (Escape): it stays closed until the text changes.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [mentioned, setMentioned] = useState<Member[]>([]);

  const quick = /^\/([a-z0-9_-]*)$/i.exec(text)?.[1]?.toLowerCase();
  const mention = noting ? /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret))?.[1]?.toLowerCase() : undefined;

  let options: Option[] = [];
  let kind: 'quick' | 'mention' | null = null;
  if (quick !== undefined) {
    kind = 'quick';
    options = (replies.data ?? [])
      .filter((r) => r.shortcut.includes(quick))
      .sort((a, b) => Number(!a.shortcut.startsWith(quick)) - Number(!b.shortcut.startsWith(quick)) || a.shortcut.localeCompare(b.shortcut))
      .map((r) => ({ id: r.id, key: `/${r.shortcut}`, text: r.body }));
  } else if (mention !== undefined) {
    kind = 'mention';
    options = members
      .filter((m) => memberLabel(m).toLowerCase().includes(mention) || m.email.toLowerCase().includes(mention))
      .map((m) => ({ id: m.user_id, key: `@${memberLabel(m)}`, text: m.email }));
  }
  options = options.slice(0, SHOWN);
  const open = kind !== null && dismissed !== text;
  const current = Math.min(active, Math.max(options.length - 1, 0));

  const render = useAction(async (id: string) => {
    const { text: rendered } = await api.post<{ text: string }>(`/api/quick-replies/${id}/render`, { conversation_id: conversationId });
    setText(rendered, rendered.length);
  });

  const pick = (option: Option): void => {
    setActive(0);
    if (kind === 'quick') {
      void render.run(option.id);
      return;
    }
    const member = members.find((m) => m.user_id === option.id);
    if (!member) return;
    const before = text.slice(0, caret).replace(/@[^\s@]*$/, `@${memberLabel(member)} `);
    setText(before + text.slice(caret), before.length);
    setMentioned((list) => (list.some((m) => m.user_id === member.user_id) ? list : [...list, member]));
  };

  const onKeyDown = (event: KeyboardEvent): boolean => {
    if (!open || options.length === 0) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') pick(options[current]!);
    else if (event.key === 'Escape') setDismissed(text);
    else return false;
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  const label = kind === 'quick' ? 'Quick replies' : 'Mention a member';
  const picker =
    open || render.error ? (
      <>
        <ErrorNote error={render.error} />
        {open ? (
          <ul class="composer-picker" role="listbox" aria-label={label} id="composer-picker">
            {options.length === 0 ? (
              <li class="muted">{kind === 'quick' ? (replies.data?.length ? 'No quick reply matches.' : 'No quick replies yet.') : 'No member matches.'}</li>
            ) : (
              options.map((option, index) => (
                <li
                  key={option.id}
                  role="option"
                  aria-selected={index === current}
                  onMouseDown={(e) => {
                    // Keeps the focus in the reply box.
                    e.preventDefault();
                    pick(option);
                  }}
                >
                  <span class="picker-key">{option.key}</span>
                  <span class="picker-text">{option.text}</span>
                </li>
              ))
            )}
          </ul>
        ) : null}
      </>
    ) : null;

  return {
    onKeyDown,
    mentionIds: (body) => mentioned.filter((m) => body.includes(`@${memberLabel(m)}`)).map((m) => m.user_id),
    reset: () => setMentioned([]),
    picker,
  };
}
