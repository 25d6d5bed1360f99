import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { navigate } from '../../router.js';

/**
 * The search field of the inbox header: Enter opens the Search page with the words typed (all
 * kinds: messages, notes and contacts).
 */
export function SearchBox({ initial = '' }: { initial?: string }): JSX.Element {
  const [text, setText] = useState(initial);
  const submit = (event: Event): void => {
    event.preventDefault();
    const q = text.trim();
    if (q) navigate(`/search?q=${encodeURIComponent(q)}`);
  };
  return (
    <form class="search-box" role="search" onSubmit={submit}>
      <label for="header-search" class="visually-hidden">
        Search messages, notes and contacts
      </label>
      <input
        id="header-search"
        type="search"
        placeholder="Search messages, notes, contacts"
        value={text}
        maxLength={200}
        onInput={(event) => setText(event.currentTarget.value)}
      />
    </form>
  );
}
