import type { WorkspaceActor } from '../../auth/auth.types.js';

/**
 * Agents see unassigned conversations and their own; everyone else (and keys) sees all. The
 * repositories take the result as `viewer`: the agent's user id, or null for "sees everything".
 * Its own file because both conversation and message services need it, and the conversation
 * service already imports from the message side.
 */
export const viewerOf = (actor: WorkspaceActor): string | null => (actor.seesAllConversations ? null : actor.userId);
