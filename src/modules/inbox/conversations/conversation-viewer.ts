import type { WorkspaceActor } from '../../auth/auth.types.js';

/**
 * Agents see unassigned conversations and their own; everyone else (and keys) sees all. The
 * repositories take the result as `viewer`: the agent's user id, or null for "sees everything".
 * Its own file because both conversation and message services need it, and the conversation
 * service already imports from the message side.
 */
/**
 * SQL: the conversation `c` is visible to the viewer in parameter `viewer` (`$2`, …): null sees
 * everything, an agent unassigned conversations and their own. The one spelling of the rule
 * every query of conversations, their messages, notes and labels carries, so a hidden
 * conversation is a missing one for reads and writes alike.
 */
export const visibleTo = (viewer: string): string => `(${viewer}::uuid IS NULL OR c.assignee_id IS NULL OR c.assignee_id = ${viewer}::uuid)`;

export const viewerOf = (actor: WorkspaceActor): string | null => (actor.seesAllConversations ? null : actor.userId);
