import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Locator } from 'playwright-core';
import { text } from '../whatsapp-sim/content-messages.js';
import { until } from './browser-support.js';
import { bubbleOf, bubbleShot, type KindsConsole, startKindsConsole } from './message-kinds-support.js';

/**
 * The quoted message above a reply (issue 36) whichever of the two arrived first: a reply synced
 * with the phone's history in one chunk with the message it quotes, ahead of it, and a live reply
 * that overtakes the message it quotes. The contact's phone is the simulator, through the real
 * Baileys driver.
 */
jest.setTimeout(90_000);

const PHONE = '15550163602';
const CONTACT = '4915100163602';
const NAME = 'Hedy';

describe('the Console shows the quote above a reply, whichever came first', () => {
  let s: KindsConsole;
  let conversationId = '';
  const from = { to: PHONE, from: CONTACT, name: NAME };

  beforeAll(async () => {
    s = await startKindsConsole(PHONE);
    conversationId = String((await s.stored(await s.stack.sim.deliverText({ ...from, text: 'Hello again' }))).conversation_id);
  });
  afterAll(async () => {
    await s?.close();
  });

  const notLoaded = (reply: Locator): Locator => reply.getByText('Original message not loaded');

  it('a history reply synced ahead of the message it quotes, in the same chunk', async () => {
    const [asked, answered] = ['HISTQ0000000000001', 'HISTA0000000000001'];
    const t0 = Math.floor(Date.now() / 1000) - 600;
    const quote = { id: asked, participant: s.own, text: 'Did you order the blue one?' };
    // Newest first, as phones often send history: the answer before our question.
    await s.stack.sim.pushHistory(PHONE, [
      {
        contact: CONTACT,
        name: NAME,
        messages: [
          { text: 'Yes, the blue one', id: answered, t: t0 + 60, message: text('Yes, the blue one', { quote }) },
          { text: quote.text, id: asked, fromMe: true, t: t0 },
        ],
      },
    ]);
    const reply = await s.stored(answered, (m) => m.quoted_id !== null);
    await s.page.goto(`${s.stack.base}/inbox/${conversationId}`);
    const bubble = bubbleOf(s.page, String(reply.id));
    await bubble.waitFor();
    await expect(bubble.locator('.bubble-quote').textContent()).resolves.toContain(quote.text);
    await expect(notLoaded(bubble).count()).resolves.toBe(0);
    await bubbleShot(bubble, '50-kind-reply-history');
  });

  it('a live reply that overtakes the message it quotes: the quote appears once that one is shown', async () => {
    await s.page.goto(`${s.stack.base}/inbox/${conversationId}`);
    await bubbleOf(s.page, String((await s.stored(await s.stack.sim.deliverText({ ...from, text: 'One more thing' }))).id)).waitFor();
    const late = '3EB0LATEQUOTED000001';
    const reply = await s.stored(
      await s.stack.sim.deliverMessage({ ...from, message: text('Six is fine', { quote: { id: late, text: 'Is six still fine?' } }) }),
    );
    const bubble = bubbleOf(s.page, String(reply.id));
    await bubble.waitFor();
    await expect(notLoaded(bubble).isVisible()).resolves.toBe(true);

    // The quoted message arrives (the live stream brings it; the reply on screen still has no quoted_id).
    await s.stack.sim.deliverMessage({ ...from, id: late, message: text('Is six still fine?') });
    await until('the quote above the late reply', async () => ((await bubble.locator('.bubble-quote').textContent()) ?? '').includes('Is six still fine?'));
    await expect(notLoaded(bubble).count()).resolves.toBe(0);
    await bubbleShot(bubble, '50-kind-reply-late');
    expect(s.errors).toEqual([]);
  });
});
