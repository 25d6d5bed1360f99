// Wire shapes of the team's own inbox tools (docs/inbox.md "Notes" and "Labels", docs/content.md
// "Quick replies"): private notes, labels, quick replies.

export interface Label {
  id: string;
  name: string;
  /** `#rrggbb`. */
  color: string;
  created_at: string;
}

export interface Note {
  id: string;
  conversation_id: string;
  /** Null: written with an API key (or the account is gone). */
  author_id: string | null;
  author_name: string;
  body: string;
  mentions: string[];
  created_at: string;
}

/** A note of the Mentions view, with the conversation's name. */
export interface Mention extends Note {
  chat_name: string;
}

export interface QuickReply {
  id: string;
  shortcut: string;
  body: string;
  created_at: string;
  updated_at: string;
}
