import { describe, expect, it } from '@jest/globals';
import { proto } from '@whiskeysockets/baileys';
import { mapHistory } from '../../src/modules/chat/driver/baileys/mappers/baileys-history.mapper.js';
import { mapLidMapping } from '../../src/modules/chat/driver/baileys/mappers/baileys-lid.mapper.js';
import { mapReceipts } from '../../src/modules/chat/driver/baileys/mappers/baileys-update.mapper.js';
import { GROUP, historyMessage, historySet, live, OWN, PEER, PEER_LID, PEER_PN } from './baileys-mappers.fixtures.js';

// What the driver maps beside live messages: receipts, history chunks and LID mappings.
const NOW = new Date('2026-11-24T12:00:00Z');
const { Status } = proto.WebMessageInfo;
const { INITIAL_BOOTSTRAP, RECENT, PUSH_NAME, ON_DEMAND } = proto.HistorySync.HistorySyncType;

describe('Baileys mappers: receipts', () => {
  const key = (id: string, fromMe = true) => ({ remoteJid: PEER, id, fromMe, participant: undefined });
  it.each<[string, number, string | null]>([
    ['server ack', Status.SERVER_ACK, 'sent'],
    ['delivery', Status.DELIVERY_ACK, 'delivered'],
    ['read', Status.READ, 'read'],
    ['played (a voice note)', Status.PLAYED, 'played'],
    ['pending', Status.PENDING, null],
    ['error', Status.ERROR, null],
  ])('a 1:1 status update, %s', (_name, status, expected) => {
    const receipts = mapReceipts({ 'messages.update': [{ key: key('OUT1'), update: { status, messageTimestamp: 1 } }] });
    expect(receipts).toEqual(expected ? [{ chatJid: PEER, externalId: 'OUT1', status: expected }] : []);
  });

  it.each<[string, proto.IUserReceipt, string]>([
    ['delivered', { userJid: PEER, receiptTimestamp: 1 }, 'delivered'],
    ['read', { userJid: PEER, readTimestamp: 1 }, 'read'],
    ['played', { userJid: PEER, playedTimestamp: 1 }, 'played'],
  ])("a group participant's receipt, %s", (_name, receipt, expected) => {
    const receipts = mapReceipts({ 'message-receipt.update': [{ key: { remoteJid: GROUP, id: 'GOUT1', fromMe: true, participant: PEER }, receipt }] });
    expect(receipts).toEqual([{ chatJid: GROUP, externalId: 'GOUT1', status: expected }]);
  });

  it("reads the status Baileys folded into an own message's upsert, and ignores others' messages", () => {
    const own = live('OUT9', { conversation: 'reply' }, { fromMe: true });
    own.userReceipt = [{ userJid: PEER, receiptTimestamp: 1 }];
    const receipts = mapReceipts({
      'messages.upsert': { type: 'append', messages: [own, live('IN1', { conversation: 'theirs' })] },
      'messages.update': [{ key: key('IN1', false), update: { status: Status.READ } }],
    });
    expect(receipts).toEqual([
      { chatJid: PEER, externalId: 'OUT9', status: 'sent' },
      { chatJid: PEER, externalId: 'OUT9', status: 'delivered' },
    ]);
  });
});

describe('Baileys mappers: history and LID mappings', () => {
  it('maps a history chunk: its messages (Long timestamps), names from chats and push names, its LID mappings', () => {
    const set = historySet(
      {
        syncType: INITIAL_BOOTSTRAP,
        progress: 40,
        conversations: [
          { id: PEER_PN, displayName: 'Alice', lidJid: PEER, messages: [historyMessage('H1', PEER_PN, { conversation: 'old one' })] },
          { id: GROUP, name: 'Team', messages: [historyMessage('H2', GROUP, { reactionMessage: { key: { id: 'H1' }, text: '👍' } }, { participant: PEER })] },
        ],
        phoneNumberToLidMappings: [{ pnJid: '15550003333@s.whatsapp.net', lidJid: '77777777777777@lid' }],
      },
      true,
    );
    expect(mapHistory(set, OWN, NOW)).toEqual({
      messages: [expect.objectContaining({ externalId: 'H1', chatJid: PEER_PN, content: 'old one', timestamp: new Date(1763000000 * 1000) })],
      chatNames: { [PEER_PN]: 'Alice', [GROUP]: 'Team' },
      lidMappings: [
        { lid: '77777777777777@lid', phone: '15550003333@s.whatsapp.net' },
        { lid: PEER, phone: PEER_PN },
      ],
      progress: 40,
      isLatest: false,
    });
  });

  it('takes push names as chat names', () => {
    const set = historySet({ syncType: PUSH_NAME, pushnames: [{ id: PEER_PN, pushname: 'Alice A.' }] });
    expect(mapHistory(set, OWN, NOW)).toMatchObject({ messages: [], chatNames: { [PEER_PN]: 'Alice A.' }, progress: null });
  });

  it.each<[string, number, number | undefined, boolean, boolean]>([
    ['the first batch after the link (Baileys says latest)', INITIAL_BOOTSTRAP, undefined, true, false],
    ['a batch on the way', RECENT, 60, false, false],
    ['the batch that says 100 %', RECENT, 100, false, true],
    ['an on-demand batch at 100 %', ON_DEMAND, 100, false, false],
  ])('the last batch of the initial sync: %s', (_name, syncType, progress, isLatest, expected) => {
    expect(mapHistory(historySet({ syncType, progress }, isLatest), OWN, NOW).isLatest).toBe(expected);
  });

  it.each<[string, { lid: string; pn: string }, object | null]>([
    ['plain', { lid: PEER, pn: PEER_PN }, { lid: PEER, phone: PEER_PN }],
    ['with device parts', { lid: `${PEER_LID}:12@lid`, pn: '15550002222:12@s.whatsapp.net' }, { lid: PEER, phone: PEER_PN }],
    ['without the phone', { lid: PEER, pn: '' }, null],
  ])('a LID mapping, %s', (_name, mapping, expected) => {
    expect(mapLidMapping(mapping)).toEqual(expected);
  });
});
