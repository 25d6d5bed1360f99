import { describe, expect, it } from '@jest/globals';
import { MESSAGE_KINDS as CONSOLE_KINDS, MESSAGE_KIND_TYPES, MESSAGE_TYPES as CONSOLE_MESSAGE_TYPES } from '../../console/src/api/message-types.js';
import { CONTRACT_MESSAGE_TYPES, MESSAGE_KIND_NAMES, messageTypeOf } from '../../src/modules/inbox/message-kinds.js';

// The Console keeps its own copy of the message types and kinds (its build does not reach the
// service's code): a type or kind the service adds must reach the Console's switches too.
describe('the Console message types', () => {
  it('equal the service catalogue', () => {
    expect(CONSOLE_MESSAGE_TYPES).toEqual(CONTRACT_MESSAGE_TYPES);
    expect(new Set(CONSOLE_MESSAGE_TYPES)).toEqual(new Set(MESSAGE_KIND_NAMES.map(messageTypeOf)));
  });

  it('have the service catalogue’s kinds, each with its coarse type', () => {
    expect(CONSOLE_KINDS).toEqual(MESSAGE_KIND_NAMES);
    expect(MESSAGE_KIND_TYPES).toEqual(Object.fromEntries(MESSAGE_KIND_NAMES.map((kind) => [kind, messageTypeOf(kind)])));
  });
});
