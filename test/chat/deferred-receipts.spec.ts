import { describe, expect, it } from '@jest/globals';
import { DeferredReceipts } from '../../src/modules/chat/driver/baileys/deferred-receipts.js';

// The receipts of a socket's inbound messages wait for the inbox (docs/operations.md, "Nothing
// acknowledged is lost"): each Baileys batch's receipts go once every event made from it is stored.
describe('deferred receipts', () => {
  const setup = () => {
    const sent: string[] = [];
    const receipts = new DeferredReceipts(() => undefined);
    const defer = (id: string): void => receipts.defer({ id, remoteJid: 'c@s.whatsapp.net' }, async () => void sent.push(id));
    return { sent, receipts, defer };
  };
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it('sends a batch once every event that took a part is stored, not before', async () => {
    const { sent, receipts, defer } = setup();
    defer('A');
    defer('B');
    const batch = receipts.take([{ key: { id: 'A' } }, { key: { id: 'B' } }]);
    const messages = batch.part();
    const edits = batch.part();
    batch.seal();
    messages();
    await flush();
    expect(sent).toEqual([]);
    edits();
    edits(); // a part counts once
    await flush();
    expect(sent.sort()).toEqual(['A', 'B']);
    expect(receipts.size).toBe(0);
  });

  it('acknowledges at once a batch that made no event (messages the inbox does not store)', async () => {
    const { sent, receipts, defer } = setup();
    defer('P');
    receipts.take([{ key: { id: 'P' } }]).seal();
    await flush();
    expect(sent).toEqual(['P']);
  });

  it('never sends a batch whose mapping failed, nor one whose event was not stored', async () => {
    const { sent, receipts, defer } = setup();
    defer('F');
    defer('U');
    const failed = receipts.take([{ key: { id: 'F' } }]);
    failed.fail();
    failed.seal();
    const unstored = receipts.take([{ key: { id: 'U' } }]);
    unstored.part(); // the inbox failed: never called
    unstored.seal();
    await flush();
    expect(sent).toEqual([]);
  });

  it('forgets what was not sent when the socket ends (WhatsApp keeps it)', () => {
    const { receipts, defer } = setup();
    defer('X');
    receipts.clear();
    expect(receipts.size).toBe(0);
  });
});
