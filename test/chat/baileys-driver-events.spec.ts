import { describe, expect, it } from '@jest/globals';
import { BufferJSON, proto, type WAMessage } from '@whiskeysockets/baileys';
import { OWN_LID, OWN_PHONE, PEER_LID, PEER_PHONE, openFake, settle } from './baileys-driver.helpers.js';

const GROUP = '120363000000000000@g.us';
const at = new Date('2026-11-24T10:00:00Z');
const seconds = at.getTime() / 1000;

/** An inbound LID 1:1 message as rc14 delivers it (decoded proto, `remoteJidAlt` carrying the phone). */
function lidMessage(id: string, message: proto.IMessage, extra: Partial<WAMessage> = {}): WAMessage {
  return {
    key: { remoteJid: `${PEER_LID}@lid`, remoteJidAlt: `${PEER_PHONE}@s.whatsapp.net`, fromMe: false, id, participant: '', addressingMode: 'lid' },
    messageTimestamp: seconds,
    pushName: 'Alice',
    message: proto.Message.fromObject(message),
    ...extra,
  } as WAMessage;
}

describe('Baileys scan driver: events', () => {
  it('maps a live LID text message, keeping the phone from the alt jid', async () => {
    const { fake, events } = await openFake();
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [lidMessage('IN1', { conversation: 'hello' })] });
    await settle();
    expect(events).toEqual([
      {
        type: 'messages',
        kind: 'notify',
        messages: [
          {
            externalId: 'IN1',
            chatJid: `${PEER_LID}@lid`,
            chatJidAlt: `${PEER_PHONE}@s.whatsapp.net`,
            isGroup: false,
            fromMe: false,
            senderJid: `${PEER_LID}@lid`,
            senderJidAlt: `${PEER_PHONE}@s.whatsapp.net`,
            senderName: 'Alice',
            type: 'text',
            content: 'hello',
            media: null,
            timestamp: at,
          },
        ],
      },
    ]);
  });

  it('maps the offline queue (append) and extended text', async () => {
    const { fake, events } = await openFake();
    fake.ev.emit('messages.upsert', { type: 'append', messages: [lidMessage('IN2', { extendedTextMessage: { text: 'see https://example.com' } })] });
    await settle();
    expect(events).toEqual([
      { type: 'messages', kind: 'append', messages: [expect.objectContaining({ externalId: 'IN2', type: 'text', content: 'see https://example.com' })] },
    ]);
  });

  it('keeps the group sender distinct from the group chat', async () => {
    const { fake, events } = await openFake();
    const msg = {
      key: { remoteJid: GROUP, fromMe: false, id: 'G1', participant: `${PEER_LID}@lid`, participantAlt: `${PEER_PHONE}@s.whatsapp.net`, addressingMode: 'lid' },
      messageTimestamp: seconds,
      pushName: 'Alice',
      message: proto.Message.fromObject({ conversation: 'hi team' }),
    } as WAMessage;
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    await settle();
    expect(events[0]).toMatchObject({
      messages: [
        { chatJid: GROUP, chatJidAlt: null, isGroup: true, senderJid: `${PEER_LID}@lid`, senderJidAlt: `${PEER_PHONE}@s.whatsapp.net`, content: 'hi team' },
      ],
    });
  });

  it('names a group message by the group subject from its metadata (asked once), not by the writer, and keeps the order of later events', async () => {
    const { fake, events } = await openFake();
    const groupMessage = (id: string, pushName: string): WAMessage =>
      ({
        key: { remoteJid: GROUP, fromMe: false, id, participant: `${PEER_LID}@lid`, addressingMode: 'lid' },
        messageTimestamp: seconds,
        pushName,
        message: proto.Message.fromObject({ conversation: `text of ${id}` }),
      }) as WAMessage;
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [groupMessage('G1', 'Alice')] });
    // Raised while the metadata is being read: must still reach the listener after G1.
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [lidMessage('IN9', { conversation: 'one to one' })] });
    await settle();
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [groupMessage('G2', 'Bob')] });
    await settle();
    expect(fake.groupQueries).toEqual([GROUP]);
    const messages = events.flatMap((e) => (e.type === 'messages' ? e.messages : []));
    expect(messages.map((m) => [m.externalId, m.senderName, m.chatName ?? null])).toEqual([
      ['G1', 'Alice', 'Team'],
      ['IN9', 'Alice', null],
      ['G2', 'Bob', 'Team'],
    ]);
  });

  it("hands a group's new subject over (groups.update), and names later messages by it", async () => {
    const { fake, events } = await openFake();
    fake.ev.emit('groups.update', [
      { id: GROUP, subject: 'Renamed team' },
      { id: '120363000000000099@g.us', announce: true },
    ]);
    await settle();
    expect(events).toEqual([{ type: 'group-names', names: [{ chatJid: GROUP, name: 'Renamed team' }] }]);
  });

  it('a group whose metadata cannot be read keeps no name; its message is still handed over', async () => {
    const { fake, events } = await openFake();
    fake.groupMetadata = async () => {
      throw new Error('item-not-found');
    };
    fake.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: GROUP, fromMe: false, id: 'G5', participant: `${PEER_LID}@lid` },
          messageTimestamp: seconds,
          pushName: 'Alice',
          message: proto.Message.fromObject({ conversation: 'hello?' }),
        } as WAMessage,
      ],
    });
    await settle();
    expect(events).toEqual([
      expect.objectContaining({ type: 'messages', messages: [expect.objectContaining({ externalId: 'G5', chatName: null, senderName: 'Alice' })] }),
    ]);
  });

  it('marks messages sent from the phone as own, with the own jid as sender', async () => {
    const { fake, events } = await openFake();
    const msg = lidMessage('OWN1', { conversation: 'sent from my phone' }, { pushName: 'Shop' });
    msg.key.fromMe = true;
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    await settle();
    expect(events[0]).toMatchObject({
      kind: 'notify',
      messages: [
        {
          externalId: 'OWN1',
          fromMe: true,
          chatJid: `${PEER_LID}@lid`,
          chatJidAlt: `${PEER_PHONE}@s.whatsapp.net`,
          senderJid: `${OWN_PHONE}@s.whatsapp.net`,
          senderJidAlt: `${OWN_LID}@lid`,
        },
      ],
    });
  });

  it('in a LID-addressed group, an own message (participant = our LID) has our phone jid as sender', async () => {
    const { fake, events } = await openFake();
    const msg = {
      key: { remoteJid: GROUP, fromMe: true, id: 'GOWN1', participant: `${OWN_LID}:3@lid`, addressingMode: 'lid' },
      messageTimestamp: seconds,
      pushName: 'Shop',
      message: proto.Message.fromObject({ conversation: 'from my phone, into the group' }),
    } as WAMessage;
    fake.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    await settle();
    expect(events[0]).toMatchObject({
      messages: [
        { externalId: 'GOWN1', fromMe: true, chatJid: GROUP, isGroup: true, senderJid: `${OWN_PHONE}@s.whatsapp.net`, senderJidAlt: `${OWN_LID}@lid` },
      ],
    });
  });

  it('maps images and documents with caption, file name, mime type and size, and a ref to download them', async () => {
    const { fake, events } = await openFake();
    const mediaKey = Buffer.alloc(32, 7);
    fake.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        lidMessage('IMG1', {
          imageMessage: {
            caption: 'look',
            mimetype: 'image/jpeg',
            fileLength: 48213,
            mediaKey,
            directPath: '/v/t62.7118-24/1.enc',
            url: 'https://mmg.whatsapp.net/v/t62.7118-24/1.enc',
          },
        }),
        lidMessage('DOC1', {
          documentWithCaptionMessage: {
            message: {
              documentMessage: {
                caption: 'the offer',
                fileName: 'offer.pdf',
                mimetype: 'application/pdf',
                fileLength: 1048576,
                mediaKey,
                directPath: '/v/t62.7119-24/2.enc',
              },
            },
          },
        }),
      ],
    });
    await settle();
    const [image, document] = (events[0] as { messages: { media: { ref: string } | null }[] }).messages;
    expect(image).toMatchObject({ type: 'image', content: 'look', media: { mimeType: 'image/jpeg', fileName: '', fileSize: 48213 } });
    expect(document).toMatchObject({
      type: 'document',
      content: 'the offer',
      media: { mimeType: 'application/pdf', fileName: 'offer.pdf', fileSize: 1048576 },
    });
    const ref = JSON.parse(document!.media!.ref, BufferJSON.reviver);
    expect(ref).toEqual({ kind: 'document', mediaKey, directPath: '/v/t62.7119-24/2.enc', url: null });
  });

  it('leaves out status updates, channels and undecryptable stubs; hands reactions and revokes over as updates, once, after the messages', async () => {
    const { fake, events } = await openFake();
    const status = lidMessage('S1', { conversation: 'story' });
    status.key.remoteJid = 'status@broadcast';
    const channel = lidMessage('N1', { conversation: 'news' });
    channel.key.remoteJid = '120363111111111111@newsletter';
    const stub = {
      key: { remoteJid: `${PEER_LID}@lid`, fromMe: false, id: 'STUB1' },
      messageTimestamp: seconds,
      messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
      messageStubParameters: ['No session record'],
    } as WAMessage;
    fake.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        status,
        channel,
        stub,
        lidMessage('P1', { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'IN1' } } }),
        lidMessage('R1', { reactionMessage: { key: { id: 'IN1' }, text: '👍' } }),
        lidMessage('L1', { locationMessage: { degreesLatitude: 52.5, degreesLongitude: 13.4 } }),
      ],
    });
    // What Baileys raises from the same upsert (processMessage): not read, so each update is handed over once.
    fake.ev.emit('messages.reaction', [{ key: { remoteJid: `${PEER_LID}@lid`, id: 'IN1' }, reaction: { key: { id: 'R1' }, text: '👍' } }]);
    fake.ev.emit('messages.update', [
      { key: { remoteJid: `${PEER_LID}@lid`, id: 'IN1' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } },
    ]);
    await settle();
    const peer = `${PEER_LID}@lid`;
    const chat = { chatJid: peer, chatJidAlt: `${PEER_PHONE}@s.whatsapp.net` };
    expect(events).toEqual([
      {
        type: 'messages',
        kind: 'notify',
        messages: [
          expect.objectContaining({
            externalId: 'L1',
            type: 'location',
            content: 'Location (52.5, 13.4)',
            media: null,
            details: { location: { latitude: 52.5, longitude: 13.4, name: '', address: '', url: '' } },
          }),
        ],
      },
      { type: 'reactions', reactions: [{ ...chat, externalId: 'IN1', senderJid: peer, fromMe: false, emoji: '👍' }] },
      { type: 'revokes', revokes: [{ ...chat, externalId: 'IN1', senderJid: peer, fromMe: false }] },
    ]);
  });

  it('takes the kind and text of wrapped and extended content: ephemeral, view-once, document-with-caption, edited wrapper, video', async () => {
    const { fake, events } = await openFake();
    fake.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        lidMessage('W1', { ephemeralMessage: { message: { extendedTextMessage: { text: 'disappearing text' } } } }),
        lidMessage('W2', { viewOnceMessageV2: { message: { imageMessage: { caption: 'look once', mimetype: 'image/jpeg' } } } }),
        lidMessage('W3', {
          documentWithCaptionMessage: { message: { documentMessage: { caption: 'the offer', fileName: 'offer.pdf', mimetype: 'application/pdf' } } },
        }),
        lidMessage('W4', { ephemeralMessage: { message: { viewOnceMessage: { message: { extendedTextMessage: { text: 'nested wrappers' } } } } } }),
        lidMessage('W5', { videoMessage: { caption: 'watch this', mimetype: 'video/mp4' } }),
        lidMessage('W6', { videoMessage: { mimetype: 'video/mp4' } }),
        lidMessage('W7', { editedMessage: { message: { conversation: 'edited wrapper' } } }),
      ],
    });
    await settle();
    const messages = events.flatMap((e) => (e.type === 'messages' ? e.messages : []));
    expect(messages.map((m) => [m.externalId, m.type, m.content])).toEqual([
      ['W1', 'text', 'disappearing text'],
      ['W2', 'image', 'look once'],
      ['W3', 'document', 'the offer'],
      ['W4', 'text', 'nested wrappers'],
      ['W5', 'video', 'watch this'],
      ['W6', 'video', ''],
      ['W7', 'text', 'edited wrapper'],
    ]);
  });

  it('hands an edit (protocol message) over as the new text of the message it edits, not as a message', async () => {
    const { fake, events } = await openFake();
    const { MESSAGE_EDIT } = proto.Message.ProtocolMessage.Type;
    fake.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        lidMessage('E1', {
          protocolMessage: { type: MESSAGE_EDIT, key: { remoteJid: `${PEER_LID}@lid`, id: 'IN1' }, editedMessage: { conversation: 'fixed typo' } },
        }),
        lidMessage('E2', {
          editedMessage: {
            message: { protocolMessage: { type: MESSAGE_EDIT, key: { id: 'IN2' }, editedMessage: { imageMessage: { caption: 'new caption' } } } },
          },
        }),
      ],
    });
    await settle();
    // With its chat and its sender (the peer), as a message of the chat has them.
    const peer = { chatJid: `${PEER_LID}@lid`, chatJidAlt: `${PEER_PHONE}@s.whatsapp.net` };
    const sender = { senderJid: `${PEER_LID}@lid`, senderJidAlt: `${PEER_PHONE}@s.whatsapp.net`, fromMe: false };
    expect(events).toEqual([
      {
        type: 'edits',
        edits: [
          { ...peer, externalId: 'IN1', content: 'fixed typo', ...sender },
          { ...peer, externalId: 'IN2', content: 'new caption', ...sender },
        ],
      },
    ]);
  });

  it('hands history batches over with names, LID mappings, progress and Long timestamps', async () => {
    const { fake, events } = await openFake();
    const old = proto.WebMessageInfo.fromObject({
      key: { remoteJid: `${PEER_PHONE}@s.whatsapp.net`, fromMe: false, id: 'H1' },
      messageTimestamp: 1763000000,
      message: { conversation: 'old one' },
    });
    fake.ev.emit('messaging-history.set', {
      chats: [{ id: GROUP, name: 'Team' }, { id: `${PEER_PHONE}@s.whatsapp.net` }],
      contacts: [{ id: `${PEER_PHONE}@s.whatsapp.net`, notify: 'Alice' }],
      messages: [old as WAMessage],
      lidPnMappings: [{ lid: `${PEER_LID}@lid`, pn: `${PEER_PHONE}@s.whatsapp.net` }],
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      progress: 40,
      isLatest: false,
    });
    await settle();
    expect(events).toEqual([
      {
        type: 'history',
        batch: {
          messages: [
            expect.objectContaining({ externalId: 'H1', content: 'old one', timestamp: new Date(1763000000 * 1000), chatJid: `${PEER_PHONE}@s.whatsapp.net` }),
          ],
          chatNames: { [GROUP]: 'Team', [`${PEER_PHONE}@s.whatsapp.net`]: 'Alice' },
          lidMappings: [{ lid: `${PEER_LID}@lid`, phone: `${PEER_PHONE}@s.whatsapp.net` }],
          progress: 40,
          isLatest: false,
        },
      },
    ]);
  });

  it("takes the batch that says 100 % as the last of the initial sync, not Baileys' isLatest (its first batch after the link)", async () => {
    const { fake, events } = await openFake();
    const { INITIAL_BOOTSTRAP, RECENT, ON_DEMAND } = proto.HistorySync.HistorySyncType;
    const batch = (syncType: number, progress: number | undefined, isLatest: boolean | undefined) =>
      fake.ev.emit('messaging-history.set', { chats: [], contacts: [], messages: [], syncType, ...(progress === undefined ? {} : { progress }), isLatest });
    batch(INITIAL_BOOTSTRAP, undefined, true);
    batch(RECENT, 60, false);
    batch(RECENT, 100, false);
    batch(ON_DEMAND, 100, undefined);
    await settle();
    expect(events.map((e) => (e.type === 'history' ? [e.batch.progress, e.batch.isLatest] : e.type))).toEqual([
      [null, false],
      [60, false],
      [100, true],
      [100, false],
    ]);
  });

  it("moves own messages forward from status updates and group receipts, ignoring others' messages", async () => {
    const { fake, events } = await openFake();
    const { Status } = proto.WebMessageInfo;
    fake.ev.emit('messages.update', [
      { key: { remoteJid: `${PEER_LID}@lid`, fromMe: true, id: 'OUT1' }, update: { status: Status.SERVER_ACK } },
      { key: { remoteJid: `${PEER_LID}@lid`, fromMe: true, id: 'OUT1' }, update: { status: Status.DELIVERY_ACK, messageTimestamp: seconds } },
      { key: { remoteJid: `${PEER_LID}@lid`, fromMe: true, id: 'OUT2' }, update: { status: Status.PLAYED } },
      { key: { remoteJid: `${PEER_LID}@lid`, fromMe: false, id: 'IN1' }, update: { status: Status.READ } },
    ]);
    fake.ev.emit('message-receipt.update', [
      {
        key: { remoteJid: GROUP, fromMe: true, id: 'GOUT1', participant: `${PEER_LID}@lid` },
        receipt: { userJid: `${PEER_LID}@lid`, receiptTimestamp: seconds },
      },
      { key: { remoteJid: GROUP, fromMe: true, id: 'GOUT2', participant: `${PEER_LID}@lid` }, receipt: { userJid: `${PEER_LID}@lid`, readTimestamp: seconds } },
    ]);
    await settle();
    expect(events).toEqual([
      {
        type: 'receipts',
        receipts: [
          { chatJid: `${PEER_LID}@lid`, externalId: 'OUT1', status: 'sent' },
          { chatJid: `${PEER_LID}@lid`, externalId: 'OUT1', status: 'delivered' },
          { chatJid: `${PEER_LID}@lid`, externalId: 'OUT2', status: 'played' },
        ],
      },
      {
        type: 'receipts',
        receipts: [
          { chatJid: GROUP, externalId: 'GOUT1', status: 'delivered' },
          { chatJid: GROUP, externalId: 'GOUT2', status: 'read' },
        ],
      },
    ]);
  });

  it('reports a status that Baileys folded into a buffered own-message upsert', async () => {
    const { fake, events } = await openFake();
    const own = lidMessage('OUT9', { extendedTextMessage: { text: 'reply' } });
    own.key.fromMe = true;
    fake.ev.buffer();
    fake.ev.emit('messages.upsert', { type: 'append', messages: [own] });
    fake.ev.emit('messages.update', [{ key: own.key, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } }]);
    fake.ev.flush();
    await settle();
    expect(events).toEqual([
      { type: 'messages', kind: 'append', messages: [expect.objectContaining({ externalId: 'OUT9', fromMe: true, content: 'reply' })] },
      { type: 'receipts', receipts: [{ chatJid: `${PEER_LID}@lid`, externalId: 'OUT9', status: 'delivered' }] },
    ]);
  });

  it('passes LID mappings on', async () => {
    const { fake, events } = await openFake();
    fake.ev.emit('lid-mapping.update', { lid: `${PEER_LID}@lid`, pn: `${PEER_PHONE}@s.whatsapp.net` });
    await settle();
    expect(events).toEqual([{ type: 'lid-mappings', mappings: [{ lid: `${PEER_LID}@lid`, phone: `${PEER_PHONE}@s.whatsapp.net` }] }]);
  });
});
