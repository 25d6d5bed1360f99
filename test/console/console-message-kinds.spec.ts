import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { toBuffer } from 'qrcode';
import { oggOpus } from '../meta/media-samples.js';
import { contacts, edit, location, poll, reaction, revoke, text } from '../whatsapp-sim/content-messages.js';
import { screenshot, until } from './browser-support.js';
import { bubbleOf, bubbleShot, type Json, type KindsConsole, startKindsConsole, styleOf } from './message-kinds-support.js';

/**
 * Every kind of message a contact sends (issue 36), as an agent sees it in the Console: the
 * contact's phone (the simulator) sends each one, the real Baileys driver and the inbox store it
 * (files downloaded from the simulator's media host), and the conversation shows it as what it
 * is: players for audio, voice notes and video, a sticker without a bubble, a map link for a
 * place, contact cards, a poll with its options, the quoted message above a reply, reactions under
 * a bubble, and the edited and deleted markers. A picture of each kind goes to test-artifacts/.
 */
jest.setTimeout(90_000);

const PHONE = '15550163601';
const CONTACT = '4915100163601';
const NAME = 'Grace';

describe('the Console shows every message kind', () => {
  let s: KindsConsole;
  let conversationId = '';
  /** Our id of each message, by the name the tests give it. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await startKindsConsole(PHONE);
    const { sim } = s.stack;
    const from = { to: PHONE, from: CONTACT, name: NAME };
    /** Delivers, waits until stored as `check` says (its file downloaded, say), and keeps our id. */
    const receive = async (name: string, send: Promise<string>, check?: (m: Json) => boolean): Promise<string> => {
      const externalId = await send;
      const stored = await s.stored(externalId, check);
      ids[name] = String(stored.id);
      conversationId = String(stored.conversation_id);
      return externalId;
    };
    const withFile = (m: Json): boolean => m.media_url !== '';
    const PNG = await toBuffer('our menu', { type: 'png', width: 120, margin: 1 });

    const asked = await receive('text', sim.deliverText({ ...from, text: 'Where shall we meet?' }));
    await receive('voice', sim.deliverMedia({ ...from, kind: 'audio', ptt: true, seconds: 7, data: oggOpus(7) }), withFile);
    await receive('audio', sim.deliverMedia({ ...from, kind: 'audio', seconds: 95, mimetype: 'audio/mpeg' }), withFile);
    await receive('video', sim.deliverMedia({ ...from, kind: 'video', seconds: 12, caption: 'The shop front' }), withFile);
    await receive('sticker', sim.deliverMedia({ ...from, kind: 'sticker' }), withFile);
    await receive('image', sim.deliverMedia({ ...from, kind: 'image', mimetype: 'image/png', data: PNG, caption: 'Our menu' }), withFile);
    await receive('document', sim.deliverMedia({ ...from, kind: 'document', mimetype: 'application/pdf', fileName: 'price-list.pdf' }), withFile);
    const place = { latitude: 52.520008, longitude: 13.404954, name: 'Alexanderplatz', address: '10178 Berlin' };
    await receive('location', sim.deliverMessage({ ...from, message: location(place) }));
    await receive('contacts', sim.deliverMessage({ ...from, message: contacts([{ name: 'Bob Builder', phones: ['4915112345678'] }]) }));
    await receive('poll', sim.deliverMessage({ ...from, message: poll('Which day suits you?', ['Monday', 'Tuesday', 'Friday'], true) }));
    await receive(
      'unsupported',
      sim.deliverMessage({ ...from, message: { callLogMesssage: { isVideo: false, callOutcome: 1, durationSecs: 42, callType: 1 } } }),
    );
    const quote = { id: asked, text: 'Where shall we meet?' };
    await receive('reply', sim.deliverMessage({ ...from, message: text('Near the station, at the clock', { quote }) }), (m) => m.quoted_id !== null);
    const older = { id: 'OLDER0000000001', text: 'something long ago' };
    await receive('reply-unloaded', sim.deliverMessage({ ...from, message: text('As I said before', { quote: older }) }));
    const edited = await receive('edited', sim.deliverText({ ...from, text: 'See you at 5' }));
    const deleted = await receive('deleted', sim.deliverText({ ...from, text: 'Wrong chat, sorry' }));

    // What changes those messages: the contact edits one, deletes one, and reacts to the first.
    await sim.deliverMessage({ ...from, message: edit({ id: edited, chat: s.own }, 'See you at 6') });
    await s.stored(edited, (m) => m.edited === true);
    await sim.deliverMessage({ ...from, message: revoke({ id: deleted, chat: s.own }) });
    await s.stored(deleted, (m) => m.deleted === true);
    await sim.deliverMessage({ ...from, message: reaction({ id: asked, fromMe: true, chat: s.own }, '👍') });
    await s.stored(asked, (m) => Array.isArray(m.reactions) && m.reactions.length === 1);

    await s.page.goto(`${s.stack.base}/inbox/${conversationId}`);
    await bubbleOf(s.page, ids.deleted!).waitFor();
  });
  afterAll(async () => {
    await s?.close();
  });

  const bubble = (name: string) => bubbleOf(s.page, ids[name]!);

  it('plays a voice note and an audio file in the page, with their playing time; the voice note says it is one', async () => {
    const voice = bubble('voice');
    await expect(voice.getByText('🎤 Voice message').isVisible()).resolves.toBe(true);
    await expect(voice.getByLabel('Duration 0:07').textContent()).resolves.toContain('0:07');
    const player = voice.locator('audio');
    expect(await player.getAttribute('controls')).not.toBeNull();
    expect(await player.getAttribute('src')).toMatch(new RegExp(`^/api/media/${s.ws.workspaceId}/[^?]+\\?tenant=`));
    await bubbleShot(voice, '50-kind-voice');

    const audio = bubble('audio');
    await expect(audio.getByText('🎵 Audio').isVisible()).resolves.toBe(true);
    await expect(audio.getByLabel('Duration 1:35').isVisible()).resolves.toBe(true);
    await expect(audio.locator('audio[controls]').count()).resolves.toBe(1);
    await expect(audio.getByText('Voice message').count()).resolves.toBe(0);
    await bubbleShot(audio, '50-kind-audio');
  });

  it('plays a video with its caption and playing time', async () => {
    const video = bubble('video');
    await expect(video.locator('video[controls]').count()).resolves.toBe(1);
    expect(await video.locator('video').getAttribute('src')).toContain(`/api/media/${s.ws.workspaceId}/`);
    await expect(video.getByText('The shop front').isVisible()).resolves.toBe(true);
    await expect(video.getByText('0:12').isVisible()).resolves.toBe(true);
    await bubbleShot(video, '50-kind-video');
  });

  it('shows a sticker small and without a bubble, an image with its caption, a document to download', async () => {
    const sticker = bubble('sticker');
    const img = sticker.getByRole('img', { name: 'Sticker' });
    await expect(img.isVisible()).resolves.toBe(true);
    const box = await img.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(128);
    await expect(styleOf(sticker, 'backgroundColor')).resolves.toBe('rgba(0, 0, 0, 0)');
    await bubbleShot(sticker, '50-kind-sticker');

    const image = bubble('image');
    const picture = image.getByRole('img', { name: 'Image: Our menu' });
    await until('the image to load', async () => (await picture.evaluate((e) => (e as unknown as { naturalWidth: number }).naturalWidth)) === 120, 20_000);
    await bubbleShot(image, '50-kind-image');

    const document = bubble('document').getByRole('link', { name: /price-list\.pdf/ });
    expect(await document.getAttribute('download')).toBe('price-list.pdf');
    await bubbleShot(bubble('document'), '50-kind-document');
  });

  it('links a place to its map (no map loaded in the page), shows contact cards and a poll', async () => {
    const place = bubble('location');
    const map = place.getByRole('link', { name: '📍 Alexanderplatz' });
    expect(await map.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=52.520008&mlon=13.404954#map=16/52.520008/13.404954');
    expect(await map.getAttribute('target')).toBe('_blank');
    await expect(place.getByText('10178 Berlin').isVisible()).resolves.toBe(true);
    await bubbleShot(place, '50-kind-location');

    const card = bubble('contacts');
    await expect(card.getByText('👤 Bob Builder').isVisible()).resolves.toBe(true);
    expect(await card.getByRole('link', { name: '+4915112345678' }).getAttribute('href')).toBe('tel:+4915112345678');
    await bubbleShot(card, '50-kind-contacts');

    const vote = bubble('poll').getByRole('group', { name: 'Poll: Which day suits you?' });
    await expect(vote.getByRole('listitem').allTextContents()).resolves.toEqual(['Monday', 'Tuesday', 'Friday']);
    await expect(vote.getByText('Multiple answers allowed').isVisible()).resolves.toBe(true);
    await bubbleShot(bubble('poll'), '50-kind-poll');
  });

  it('says what arrived for a message it cannot show, in a muted style', async () => {
    const note = bubble('unsupported').getByText('[a call]');
    await expect(note.isVisible()).resolves.toBe(true);
    await expect(styleOf(note, 'fontStyle')).resolves.toBe('italic');
    await expect(styleOf(note, 'color')).resolves.toBe('rgb(95, 107, 118)');
    await bubbleShot(bubble('unsupported'), '50-kind-unsupported');
  });

  it('marks an edited message and a message deleted for everyone (its text kept, struck through)', async () => {
    const edited = bubble('edited');
    await expect(edited.getByText('See you at 6').isVisible()).resolves.toBe(true);
    await expect(edited.getByText(/edited/).isVisible()).resolves.toBe(true);
    await bubbleShot(edited, '50-kind-edited');

    const deleted = bubble('deleted');
    await expect(deleted.getByText('Deleted for everyone').isVisible()).resolves.toBe(true);
    const kept = deleted.getByText('Wrong chat, sorry');
    await expect(styleOf(kept, 'textDecorationLine')).resolves.toBe('line-through');
    // A deleted message can be neither answered nor reacted to.
    await expect(deleted.getByRole('button', { name: 'Reply' }).count()).resolves.toBe(0);
    await bubbleShot(deleted, '50-kind-deleted');
  });

  it('shows reactions under their bubble, with counts', async () => {
    const reactions = bubble('text').getByRole('list', { name: 'Reactions' });
    await expect(reactions.textContent()).resolves.toBe('👍 1');
    await bubbleShot(bubble('text'), '50-kind-text-reacted');
  });

  it('shows the quoted message above a reply; a click scrolls to it and highlights it', async () => {
    const reply = bubble('reply');
    const quote = reply.locator('.bubble-quote');
    await expect(quote.textContent()).resolves.toBe(`${NAME}Where shall we meet?`);
    await bubbleShot(reply, '50-kind-reply');
    await expect(bubble('reply-unloaded').getByText('Original message not loaded').isVisible()).resolves.toBe(true);

    const messages = s.page.locator('.messages');
    await messages.evaluate((box) => box.scrollTo(0, box.scrollHeight));
    const target = bubble('text');
    const inView = async (): Promise<boolean> => {
      const [area, item] = [await messages.boundingBox(), await target.boundingBox()];
      return Boolean(area && item && item.y >= area.y - 1 && item.y + item.height <= area.y + area.height + 1);
    };
    expect(await inView()).toBe(false);
    await reply.getByRole('button', { name: /Where shall we meet\?/ }).click();
    await until('the quoted message in view', inView);
    await expect(target.getAttribute('class')).resolves.toContain('bubble-highlight');
    await until('the highlight to fade', async () => !(await target.getAttribute('class'))!.includes('bubble-highlight'), 5000);
    await screenshot(s.page, '50-kinds-conversation');
  });

  it('fits every kind on a phone screen', async () => {
    const phone = await s.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await s.context.storageState() });
    phone.setDefaultTimeout(15_000);
    const small = await phone.newPage();
    await small.goto(`${s.stack.base}/inbox/${conversationId}`);
    await bubbleOf(small, ids.deleted!).waitFor();
    await screenshot(small, '50-kinds-phone');
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).toBe(390);
    expect(await small.locator('.messages').evaluate((box) => box.scrollWidth - box.clientWidth)).toBe(0);
    await phone.close();
    expect(s.errors).toEqual([]);
  });
});
