import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  ChannelError,
  type ChannelConversation,
  type ChannelGateway,
  type ChannelName,
  type OutgoingMessage,
  type SendReceipt,
} from '../../src/modules/channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../src/modules/channels/channel-registry.service.js';

export interface SentRecord {
  workspaceId: string;
  conversation: ChannelConversation;
  outgoing: OutgoingMessage;
  externalId: string;
}

export interface ReadRecord {
  workspaceId: string;
  conversation: ChannelConversation;
  messageIds: string[];
}

/**
 * An in-memory `scan` channel for tests: register it with `createTestApp({ providers:
 * [FakeChannelGateway] })`, then `t.app.get(FakeChannelGateway)`. Workspaces are disconnected
 * until `connect()`; `failWith()` makes sends throw; every send and read receipt is recorded.
 */
@Injectable()
export class FakeChannelGateway implements ChannelGateway, OnModuleInit {
  readonly channel: ChannelName = 'scan';
  readonly sent: SentRecord[] = [];
  readonly reads: ReadRecord[] = [];
  private readonly connected = new Set<string>();
  private failure: Error | null = null;
  private counter = 0;

  constructor(private readonly registry: ChannelRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  connect(workspaceId: string): void {
    this.connected.add(workspaceId);
  }

  disconnect(workspaceId: string): void {
    this.connected.delete(workspaceId);
  }

  /** Sends fail until `succeed()`: a `ChannelError` text reaches the client, other errors do not. */
  failWith(error: Error | string): void {
    this.failure = typeof error === 'string' ? new ChannelError(error) : error;
  }

  succeed(): void {
    this.failure = null;
  }

  reset(): void {
    this.sent.length = 0;
    this.reads.length = 0;
    this.connected.clear();
    this.failure = null;
  }

  async isConnected(workspaceId: string): Promise<boolean> {
    return this.connected.has(workspaceId);
  }

  async send(workspaceId: string, conversation: ChannelConversation, outgoing: OutgoingMessage): Promise<SendReceipt> {
    if (this.failure) throw this.failure;
    const externalId = `FAKE${(++this.counter).toString().padStart(8, '0')}`;
    this.sent.push({ workspaceId, conversation, outgoing, externalId });
    return { externalId };
  }

  async markRead(workspaceId: string, conversation: ChannelConversation, messageIds: string[]): Promise<void> {
    this.reads.push({ workspaceId, conversation, messageIds });
  }
}
