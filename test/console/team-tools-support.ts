// The browser tests of the team's inbox tools (issue 39: notes, labels, quick replies): the real
// service and Chromium, a workspace with an owner and an agent, and one conversation stored
// through the real ingest (no number needs to be linked: none of these sends anything).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ConversationEntity } from '../../src/modules/inbox/entities/conversation.entity.js';
import type { TestUser } from '../support/factories.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { collectPageErrors, launchChromium, signedInContext, startConsoleStack, type ConsoleStack } from './browser-support.js';

export interface TeamConsole {
  stack: ConsoleStack;
  browser: Browser;
  owner: TestUser;
  agent: TestUser;
  workspaceId: string;
  conversation: ConversationEntity;
  inbox: InboxFactories;
  /** The owner's page, and its uncaught script errors. */
  page: Page;
  errors: string[];
  /** A page signed in as `user` (its own context). */
  pageOf: (user: TestUser) => Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  close: () => Promise<void>;
}

export async function startTeamConsole(tag: string): Promise<TeamConsole> {
  const [stack, browser] = await Promise.all([startConsoleStack(), launchChromium()]);
  const { t } = stack;
  const owner = await t.factories.user({ name: 'Olivia Owner', email: `olivia@${tag}.test` });
  const agent = await t.factories.user({ name: 'Ana Agent', email: `ana@${tag}.test` });
  const ws = await t.factories.workspace({ name: 'Team shop' });
  await t.factories.member(ws.id, owner.id, 'owner');
  await t.factories.member(ws.id, agent.id, 'agent');
  const inbox = new InboxFactories(t.app);
  const phone = '4915100390001';
  const conversation = await inbox.conversation(ws.id, {
    phone,
    chatName: 'Maria Souza',
    senderName: 'Maria Souza',
    contact: { phone, name: 'Maria Souza' },
    content: 'Hello, where is my order?',
  });
  const pageOf = async (user: TestUser) => {
    const context = await signedInContext(browser, stack, user.id);
    const page = await context.newPage();
    return { page, context, errors: collectPageErrors(page) };
  };
  const mine = await pageOf(owner);
  return {
    stack,
    browser,
    owner,
    agent,
    workspaceId: ws.id,
    conversation,
    inbox,
    page: mine.page,
    errors: mine.errors,
    pageOf,
    close: async () => {
      await browser.close();
      await stack.stop();
    },
  };
}
