import { useEffect, useRef } from 'preact/hooks';

// The inbox's keyboard shortcuts, as commands: one listener on the document turns keys into
// commands, and the part of the page that owns the action (the list moves the selection, the open
// conversation changes its status) subscribes to its command. That keeps the key map in one place
// and lets each part stay ignorant of the others.

export type InboxCommand = 'next' | 'previous' | 'reply' | 'close' | 'snooze' | 'open' | 'pending' | 'help';

export interface Shortcut {
  keys: string[];
  command: InboxCommand;
  what: string;
}

/** What the `?` dialog lists, in this order. */
export const SHORTCUTS: Shortcut[] = [
  { keys: ['j', '↓'], command: 'next', what: 'Next conversation' },
  { keys: ['k', '↑'], command: 'previous', what: 'Previous conversation' },
  { keys: ['Enter', 'r'], command: 'reply', what: 'Write a reply (focus the message box)' },
  { keys: ['e'], command: 'close', what: 'Close the conversation' },
  { keys: ['s'], command: 'snooze', what: 'Snooze… (choose until when)' },
  { keys: ['o'], command: 'open', what: 'Reopen the conversation' },
  { keys: ['p'], command: 'pending', what: 'Mark as pending' },
  { keys: ['?'], command: 'help', what: 'Show these shortcuts' },
];

const KEY_COMMANDS: Record<string, InboxCommand> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  Enter: 'reply',
  r: 'reply',
  e: 'close',
  s: 'snooze',
  o: 'open',
  p: 'pending',
  '?': 'help',
};

const handlers = new Map<InboxCommand, Set<() => void>>();

/** Runs the command's subscribers; answers whether anyone took it. */
export function runInboxCommand(command: InboxCommand): boolean {
  const set = handlers.get(command);
  if (!set || set.size === 0) return false;
  for (const handler of set) handler();
  return true;
}

/** Calls `handler` on `command` while the component is mounted. */
export function useInboxCommand(command: InboxCommand, handler: () => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const set = handlers.get(command) ?? new Set<() => void>();
    const call = (): void => latest.current();
    set.add(call);
    handlers.set(command, set);
    return () => {
      set.delete(call);
    };
  }, [command]);
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * The command a key press means, or null: never while typing in a field, with Ctrl/Meta/Alt, or
 * while a dialog is open (it has its own keys). Enter and the arrows keep their own meaning where
 * the focus is on something that uses them (a link or button activates; the message history scrolls).
 */
export function commandOf(event: KeyboardEvent): InboxCommand | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return null;
  if (isTyping(event.target) || document.querySelector('dialog[open]')) return null;
  const command = KEY_COMMANDS[event.key];
  if (!command) return null;
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (event.key === 'Enter' && target?.closest('a, button, summary, [role="button"]')) return null;
  if (event.key.startsWith('Arrow') && target?.closest('.messages, .bubble, audio, video')) return null;
  return command;
}

/** Installs the inbox's key listener (and Escape out of the composer) while mounted. */
export function useInboxKeys(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (event.key === 'Escape' && target?.id === 'composer-text') {
        // The composer's own Escape comes first: closing a picker, or cancelling a reply in progress.
        if (event.defaultPrevented || document.querySelector('.reply-bar')) return;
        target.blur();
        document.querySelector<HTMLElement>('.conversation-view .messages')?.focus({ preventScroll: true });
        return;
      }
      const command = commandOf(event);
      if (command && runInboxCommand(command)) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
