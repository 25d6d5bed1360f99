import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Request } from 'playwright-core';
import { oggOpus } from '../meta/media-samples.js';
import { reaction } from '../whatsapp-sim/content-messages.js';
import { screenshot, until } from './browser-support.js';
import { bubbleOf, bubbleShot, type KindsConsole, startKindsConsole } from './message-kinds-support.js';

/**
 * The composer's new sends (issue 36), from the Console through the real Baileys driver to the
 * contact's phone (the simulator decrypts what it receives): a reply to a chosen message, a
 * reaction and taking it back, a voice note, an audio file and a video. Each checks the request
 * the Console makes, what the contact gets, and what the conversation shows afterwards.
 */
jest.setTimeout(90_000);

const PHONE = '15550163602';
const CONTACT = '4915100163602';

describe('the Console composer: replies, reactions, audio, voice and video', () => {
  let s: KindsConsole;
  let conversationId = '';
  let askedId = '';
  let askedExternal = '';

  beforeAll(async () => {
    s = await startKindsConsole(PHONE);
    askedExternal = await s.stack.sim.deliverText({ to: PHONE, from: CONTACT, name: 'Grace', text: 'Can you send the recording?' });
    const asked = await s.stored(askedExternal);
    [askedId, conversationId] = [String(asked.id), String(asked.conversation_id)];
    await s.page.goto(`${s.stack.base}/inbox/${conversationId}`);
    await bubbleOf(s.page, askedId).waitFor();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The next send request the page makes, with what `act` does to make it. */
  const sendRequest = async (act: () => Promise<void>): Promise<Request> => {
    const [request] = await Promise.all([
      s.page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/conversations/${conversationId}/messages`)),
      act(),
    ]);
    return request;
  };
  const composer = () => s.page.getByRole('textbox', { name: 'Message', exact: true });

  it('replies to a chosen message: the reply bar shows it, the contact gets the quote, the bubble shows it', async () => {
    const asked = bubbleOf(s.page, askedId);
    await asked.hover();
    await asked.getByRole('button', { name: 'Reply' }).click();
    const bar = s.page.getByRole('status', { name: 'Replying to' });
    await expect(bar.textContent()).resolves.toContain('Replying to Grace');
    await expect(bar.textContent()).resolves.toContain('Can you send the recording?');
    await screenshot(s.page, '51-compose-reply');

    // Typing starts at once: choosing the message put the cursor in the composer.
    await s.page.keyboard.type('Here it comes');
    const request = await sendRequest(() => composer().press('Enter'));
    expect(request.postDataJSON()).toEqual({ body: 'Here it comes', reply_to: askedId });
    const sent = await s.stack.sim.waitForSent((m) => m.text === 'Here it comes');
    expect(sent.quoted).toMatchObject({ id: askedExternal, text: 'Can you send the recording?' });
    await bar.waitFor({ state: 'detached' });
    const reply = s.page.locator('.bubble-outbound', { hasText: 'Here it comes' });
    await expect(reply.locator('.bubble-quote').textContent()).resolves.toBe('GraceCan you send the recording?');
    await bubbleShot(reply, '51-compose-reply-sent');
  });

  it('cancels a reply before sending it', async () => {
    const asked = bubbleOf(s.page, askedId);
    await asked.hover();
    await asked.getByRole('button', { name: 'Reply' }).click();
    const bar = s.page.getByRole('status', { name: 'Replying to' });
    await bar.getByRole('button', { name: 'Cancel reply' }).click();
    await bar.waitFor({ state: 'detached' });
    const request = await sendRequest(async () => {
      await composer().fill('No quote here');
      await composer().press('Enter');
    });
    expect(request.postDataJSON()).toEqual({ body: 'No quote here' });
  });

  it('reacts from the emoji picker, and takes the reaction back by tapping it again', async () => {
    const asked = bubbleOf(s.page, askedId);
    await asked.hover();
    await asked.getByRole('button', { name: 'React' }).click();
    await bubbleShot(asked, '51-compose-reaction-picker');
    const request = await sendRequest(() => asked.getByRole('group', { name: 'Pick a reaction' }).getByRole('button', { name: 'React with ❤️' }).click());
    expect(request.postDataJSON()).toEqual({ reaction: { message_id: askedId, emoji: '❤️' } });
    expect((await request.response())!.status()).toBe(201);
    const sent = await s.stack.sim.waitForSent((m) => m.reaction?.emoji === '❤️');
    expect(sent.reaction!.key.id).toBe(askedExternal);
    const mine = asked.getByRole('list', { name: 'Reactions' }).getByRole('button', { name: '❤️ 1' });
    await mine.waitFor();
    expect(await mine.getAttribute('aria-pressed')).toBe('true');
    await bubbleShot(asked, '51-compose-reacted');

    const removal = await sendRequest(() => mine.click());
    expect(removal.postDataJSON()).toEqual({ reaction: { message_id: askedId, emoji: '' } });
    const taken = await s.stack.sim.waitForSent((m) => m.reaction?.emoji === '' && m.reaction.key.id === askedExternal);
    expect(taken.reaction!.key.id).toBe(askedExternal);
    await asked.getByRole('list', { name: 'Reactions' }).waitFor({ state: 'detached' });
  });

  it('shows a contact’s reaction to our reply live', async () => {
    const sent = await s.stack.sim.waitForSent((m) => m.text === 'Here it comes');
    await s.stack.sim.deliverMessage({ to: PHONE, from: CONTACT, message: reaction({ id: sent.id, fromMe: false, chat: s.own }, '🙏') });
    const reply = s.page.locator('.bubble-outbound', { hasText: 'Here it comes' });
    const theirs = reply.getByRole('list', { name: 'Reactions' }).getByRole('button', { name: '🙏 1' });
    await theirs.waitFor({ timeout: 20_000 });
    expect(await theirs.getAttribute('aria-pressed')).toBe('false');
  });

  it('sends an Ogg recording as a voice note: the contact gets a voice note of its length', async () => {
    const recording = oggOpus(3);
    await s.page.locator('#composer-file').setInputFiles({ name: 'note.ogg', mimeType: 'audio/ogg', buffer: recording });
    const asVoice = s.page.getByLabel('Send as a voice message');
    expect(await asVoice.isChecked()).toBe(true);
    const request = await sendRequest(() => s.page.getByRole('button', { name: 'Send', exact: true }).click());
    expect(request.postDataJSON()).toEqual({
      type: 'voice',
      media: { data_base64: recording.toString('base64'), mime_type: 'audio/ogg; codecs=opus', file_name: 'note.ogg' },
    });
    expect((await request.response())!.status()).toBe(201);
    const sent = await s.stack.sim.waitForSent((m) => m.media?.kind === 'audio' && m.media.ptt === true);
    expect(sent.error).toBeUndefined();
    expect(sent.media).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', seconds: 3 });
    expect(sent.media!.data.equals(recording)).toBe(true);
    const voice = s.page.locator('.bubble-outbound[data-kind="voice"]');
    await voice.getByText('🎤 Voice message').waitFor();
    await voice.getByLabel('Duration 0:03').waitFor();
    await bubbleShot(voice, '51-compose-voice-sent');
  });

  it('sends an audio file as audio (not a voice note) and a video with its caption', async () => {
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 1)]);
    await s.page.locator('#composer-file').setInputFiles({ name: 'jingle.mp3', mimeType: 'audio/mpeg', buffer: mp3 });
    await expect(s.page.getByLabel('Send as a voice message').count()).resolves.toBe(0);
    const audio = await sendRequest(() => s.page.getByRole('button', { name: 'Send', exact: true }).click());
    expect(audio.postDataJSON()).toEqual({ type: 'audio', media: { data_base64: mp3.toString('base64'), mime_type: 'audio/mpeg', file_name: 'jingle.mp3' } });
    const sentAudio = await s.stack.sim.waitForSent((m) => m.media?.kind === 'audio' && m.media.ptt === false);
    expect(sentAudio.media!.data.equals(mp3)).toBe(true);
    await s.page.locator('.bubble-outbound[data-kind="audio"]').getByText('🎵 Audio').waitFor();

    const mp4 = Buffer.concat([Buffer.from('000000186674797069736f6d', 'hex'), Buffer.alloc(64, 2)]);
    await s.page.locator('#composer-file').setInputFiles({ name: 'tour.mp4', mimeType: 'video/mp4', buffer: mp4 });
    await s.page.getByRole('textbox', { name: 'Caption', exact: true }).fill('A quick tour');
    const video = await sendRequest(() => s.page.getByRole('button', { name: 'Send', exact: true }).click());
    expect(video.postDataJSON()).toEqual({
      type: 'video',
      media: { data_base64: mp4.toString('base64'), mime_type: 'video/mp4', file_name: 'tour.mp4' },
      caption: 'A quick tour',
    });
    const sentVideo = await s.stack.sim.waitForSent((m) => m.media?.kind === 'video');
    expect(sentVideo.media).toMatchObject({ caption: 'A quick tour', mimetype: 'video/mp4' });
    const bubble = s.page.locator('.bubble-outbound[data-kind="video"]', { hasText: 'A quick tour' });
    await until('the video player', async () => (await bubble.locator('video[controls]').count()) === 1, 20_000);
    await screenshot(s.page, '51-compose-media-sent');
    expect(s.errors).toEqual([]);
  });
});
