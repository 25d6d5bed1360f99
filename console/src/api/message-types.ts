// The contract's `message_type` values, as the Console shows them. A copy: the Console's build
// does not reach the service's code. test/console/console-message-types.spec.ts checks that it
// equals the service's catalogue (src/modules/inbox/message-kinds.ts).
export const MESSAGE_TYPES = ['text', 'image', 'document'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/**
 * The end of a switch over message types: a type left unhandled does not compile. At run time
 * (a newer service than this build) the message just shows without it.
 */
export const unhandledType = (_type: never): null => null;
