// Answers to the iq queries a logged-in Baileys device makes. Anything not listed gets an empty
// result, which Baileys accepts for the queries it only fires and forgets.
import { getBinaryNodeChild, getBinaryNodeChildren, type BinaryNode } from '@whiskeysockets/baileys';
import type { MediaHost } from './media-host.js';
import type { LinkedDevice, SimGroup, World } from './sim-model.js';
import { bundleUser, children, iqResult, readPreKeyUpload, SERVER } from './stanzas.js';

export interface IqContext {
  world: World;
  media: MediaHost;
}

export const answerIq = ({ world, media }: IqContext, device: LinkedDevice | undefined, iq: BinaryNode): BinaryNode => {
  const id = iq.attrs.id;
  switch (iq.attrs.xmlns) {
    case 'w:m':
      // Where to upload media, and the token the upload must carry.
      return iqResult(id, [
        {
          tag: 'media_conn',
          attrs: { auth: media.auth, ttl: '300', auth_ttl: '21600', max_buckets: '12' },
          content: [{ tag: 'host', attrs: { hostname: media.hostname, maxContentLengthBytes: String(100 * 1024 * 1024) } }],
        },
      ]);
    case 'w:g2':
      return getBinaryNodeChild(iq, 'query') ? groupMetadata(world, iq) : iqResult(id);
    case 'encrypt':
      return device ? encryptIq(world, device, iq) : iqResult(id);
    case 'usync':
      return usync(world, device, iq);
    case 'w:sync:app:state':
      return appState(iq);
    case 'md':
      if (device && getBinaryNodeChild(iq, 'remove-companion-device')) device.removed = true;
      return iqResult(id);
    default:
      return iqResult(id);
  }
};

const encryptIq = (world: World, device: LinkedDevice, iq: BinaryNode): BinaryNode => {
  const id = iq.attrs.id;
  if (getBinaryNodeChild(iq, 'count')) {
    return iqResult(id, [{ tag: 'count', attrs: { value: String(device.bundle.preKeys.length) } }]);
  }
  if (getBinaryNodeChild(iq, 'digest')) {
    return iqResult(id, [{ tag: 'digest', attrs: {} }]);
  }
  if (iq.attrs.type === 'set' && getBinaryNodeChild(iq, 'list')) {
    const keys = readPreKeyUpload(iq);
    device.bundle.preKeys.push(...keys);
    device.uploadedPreKeys += keys.length;
    return iqResult(id);
  }
  const key = getBinaryNodeChild(iq, 'key');
  if (key) {
    const users = getBinaryNodeChildren(key, 'user').flatMap((user) => {
      const contact = world.contactByJid(user.attrs.jid);
      return contact ? [bundleUser(user.attrs.jid, contact.peer.issueBundle())] : [];
    });
    return iqResult(id, [{ tag: 'list', attrs: {}, content: users }]);
  }
  return iqResult(id);
};

/**
 * Device lists: every contact has one device (its phone, device 0), and its LID when asked (Baileys
 * 7 only fetches pre-keys for LIDs, so a phone number without one could not be written to). The
 * account's own devices are left out, so a linked device never encrypts to itself or its phone.
 */
const usync = (world: World, device: LinkedDevice | undefined, iq: BinaryNode): BinaryNode => {
  const query = getBinaryNodeChild(iq, 'usync');
  const wantsLid = !!getBinaryNodeChild(getBinaryNodeChild(query, 'query'), 'lid');
  const users = getBinaryNodeChildren(getBinaryNodeChild(query, 'list'), 'user').map((user): BinaryNode => {
    const phone = user.attrs.jid ? undefined : lookedUpPhone(user);
    if (phone !== undefined) return phoneLookup(world, phone, wantsLid);
    const jid = user.attrs.jid;
    const own = device && [device.account.phone, device.account.lid].includes(jid?.split('@')[0]?.split(':')[0]);
    const contact = own ? undefined : world.contactByJid(jid ?? '');
    const content: BinaryNode[] = [
      {
        tag: 'devices',
        attrs: {},
        content: [{ tag: 'device-list', attrs: {}, content: contact ? [{ tag: 'device', attrs: { id: '0' } }] : [] }],
      },
    ];
    if (contact && wantsLid && jid?.endsWith('@s.whatsapp.net')) {
      content.push({ tag: 'lid', attrs: { val: contact.lidJid } });
    }
    if (getBinaryNodeChild(getBinaryNodeChild(query, 'query'), 'contact')) {
      content.push({ tag: 'contact', attrs: { type: contact ? 'in' : 'out' } });
    }
    return { tag: 'user', attrs: { jid }, content };
  });
  return iqResult(iq.attrs.id, [{ tag: 'usync', attrs: { ...(query?.attrs ?? {}) }, content: [{ tag: 'list', attrs: {}, content: users }] }]);
};

/** The number of a lookup by phone (`<user><contact>+4915…</contact></user>`, as `onWhatsApp` sends it), as digits. */
const lookedUpPhone = (user: BinaryNode): string | undefined => {
  const content = getBinaryNodeChild(user, 'contact')?.content;
  const text = typeof content === 'string' ? content : content instanceof Uint8Array ? Buffer.from(content).toString('utf8') : undefined;
  const digits = text?.replace(/\D/g, '');
  return digits || undefined;
};

/**
 * A lookup by phone: `type="in"` for a number the world knows (a contact or an account), `"out"`
 * for any other (not on WhatsApp; Baileys' onWhatsApp leaves it out). Looking up never creates a
 * contact, unlike addressing a jid does.
 */
const phoneLookup = (world: World, phone: string, wantsLid: boolean): BinaryNode => {
  const known = world.knows(phone);
  const content: BinaryNode[] = [{ tag: 'contact', attrs: { type: known ? 'in' : 'out' } }];
  const contact = known ? world.contacts.get(phone) : undefined;
  if (contact && wantsLid) content.push({ tag: 'lid', attrs: { val: contact.lidJid } });
  return { tag: 'user', attrs: { jid: `${phone}@${SERVER}` }, content };
};

/** A group's metadata (`query request="interactive"`): subject, addressing mode, participants. */
const groupMetadata = (world: World, iq: BinaryNode): BinaryNode => {
  const group = world.groups.get(iq.attrs.to ?? '');
  if (!group) {
    return {
      tag: 'iq',
      attrs: { id: iq.attrs.id, type: 'error', from: iq.attrs.to ?? SERVER },
      content: [{ tag: 'error', attrs: { code: '404', text: 'item-not-found' } }],
    };
  }
  return { tag: 'iq', attrs: { id: iq.attrs.id, type: 'result', from: group.jid }, content: [groupNode(group)] };
};

const groupNode = (group: SimGroup): BinaryNode => {
  const lid = group.addressingMode === 'lid';
  const participant = (pnJid: string, lidJid: string, type?: string): BinaryNode => ({
    tag: 'participant',
    attrs: { ...(lid ? { jid: lidJid, phone_number: pnJid } : { jid: pnJid, lid: lidJid }), ...(type ? { type } : {}) },
  });
  const accounts = [...group.accounts];
  const creator = accounts[0];
  return {
    tag: 'group',
    attrs: {
      id: group.jid.split('@')[0]!,
      subject: group.subject,
      s_t: String(group.creation),
      creation: String(group.creation),
      size: String(accounts.length + group.contacts.size),
      addressing_mode: group.addressingMode,
      ...(creator ? { creator: lid ? `${creator.lid}@lid` : `${creator.phone}@${SERVER}` } : {}),
    },
    content: [
      ...accounts.map((a, i) => participant(`${a.phone}@${SERVER}`, `${a.lid}@lid`, i === 0 ? 'superadmin' : undefined)),
      ...[...group.contacts].map((c) => participant(c.pnJid, c.lidJid)),
    ],
  };
};

/** Every requested app-state collection answered as empty and complete (no patches, no more). */
const appState = (iq: BinaryNode): BinaryNode => {
  const sync = getBinaryNodeChild(iq, 'sync');
  const collections = children(sync).map((c): BinaryNode => ({
    tag: 'collection',
    attrs: { name: c.attrs.name, version: c.attrs.version ?? '0' },
  }));
  return iqResult(iq.attrs.id, [{ tag: 'sync', attrs: {}, content: collections }]);
};
