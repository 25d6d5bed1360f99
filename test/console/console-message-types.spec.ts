import { describe, expect, it } from '@jest/globals';
import { MESSAGE_TYPES as CONSOLE_MESSAGE_TYPES } from '../../console/src/api/message-types.js';
import { CONTRACT_MESSAGE_TYPES, MESSAGE_KIND_NAMES, messageTypeOf } from '../../src/modules/inbox/message-kinds.js';

// The Console keeps its own copy of the message types (its build does not reach the service's
// code): a type the service adds must reach the Console's switches too.
describe('the Console message types', () => {
  it('equal the service catalogue', () => {
    expect(CONSOLE_MESSAGE_TYPES).toEqual(CONTRACT_MESSAGE_TYPES);
    expect(new Set(CONSOLE_MESSAGE_TYPES)).toEqual(new Set(MESSAGE_KIND_NAMES.map(messageTypeOf)));
  });
});
