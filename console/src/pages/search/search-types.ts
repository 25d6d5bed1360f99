// The wire shape of GET /api/search (docs/inbox.md, "Search").

export type SearchResultType = 'message' | 'contact' | 'note';
export type SearchType = 'all' | 'messages' | 'contacts' | 'notes';

export interface SearchResult {
  type: SearchResultType;
  id: string;
  conversation_id: string | null;
  contact_id: string | null;
  chat_name: string;
  snippet: string;
  /** [start, end) offsets into `snippet` (JavaScript string indexes). */
  highlights: [number, number][];
  timestamp: string;
  rank: number;
}

export interface SearchPage {
  results: SearchResult[];
  next_cursor: string | null;
}
