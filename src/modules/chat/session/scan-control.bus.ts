import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppConfig } from '../../../infra/config/app-config.js';
import { createRedis, REDIS, RedisKeys } from '../../../infra/redis/redis.module.js';

export type ControlOp = 'connect' | 'pairingCode' | 'stop' | 'disconnect' | 'send' | 'markRead' | 'presence' | 'lookup' | 'adopt' | 'passkey';

interface ControlRequest {
  id: string;
  from: string;
  op: ControlOp;
  workspaceId: string;
  args: unknown;
}

interface ControlReply {
  id: string;
  ok: boolean;
  result?: unknown;
  error?: { name: string; message: string };
}

/** A handler's answer: a result to send back, or `IGNORED` (not ours: someone else answers). */
export const IGNORED = Symbol('IGNORED');
export type ControlHandler = (op: ControlOp, workspaceId: string, args: unknown) => Promise<unknown>;

/** Nobody is subscribed where the request went (no worker running, or the holder died). */
export class NoReceiverError extends Error {
  constructor() {
    super('no process received the request');
    this.name = 'NoReceiverError';
  }
}

export class ControlTimeoutError extends Error {
  constructor(op: ControlOp) {
    super(`no answer to ${op} in time`);
    this.name = 'ControlTimeoutError';
  }
}

/** An error the answering process threw, rebuilt with its name and message. */
export class RemoteError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * How any process reaches the worker holding a workspace's socket: Redis pub/sub request/reply.
 * - `claim`: broadcast to every worker; a worker that holds the lease, or wins it, answers
 *   (used by connect and by a pairing-code request when no one holds the session);
 * - `rpc:<process id>`: one holder's own channel (connect, pairing code, stop, disconnect, send, mark-read,
 *   presence, lookup);
 * - `reply:<process id>`: answers to this process's requests.
 * Pub/sub needs its own connection (a subscribed connection cannot send commands).
 */
@Injectable()
export class ScanControlBus implements OnModuleInit, OnApplicationShutdown {
  /** This process (app instance): lease owner id and address of its channels. */
  readonly processId = randomUUID();
  private readonly logger = new Logger(ScanControlBus.name);
  private readonly pending = new Map<string, { resolve: (reply: ControlReply) => void }>();
  private subscriber: Redis | undefined;
  private subscribed: Promise<unknown> = Promise.resolve();
  private handler: ControlHandler | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly keys: RedisKeys,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onModuleInit(): void {
    this.subscriber = createRedis(this.config, { connectionName: 'chat-control', maxRetriesPerRequest: null });
    this.subscriber.on('message', (channel: string, message: string) => this.dispatch(channel, message));
    const channels = [this.channel('reply', this.processId)];
    if (this.config.runsWorkers) channels.push(this.channel('claim'), this.channel('rpc', this.processId));
    // Not awaited: the service starts (and serves) while Redis is away; ioredis subscribes once it
    // connects and subscribes again after every reconnect.
    this.subscribed = this.subscriber.subscribe(...channels).catch((error: unknown) => this.logger.warn(`control channels not subscribed: ${String(error)}`));
  }

  // disconnect, not quit: a QUIT would wait for Redis forever while it is away (this connection
  // retries every command until it is connected), and a subscriber has nothing to flush.
  onApplicationShutdown(): void {
    this.subscriber?.disconnect();
  }

  /** Where this worker's requests are answered (set by the session manager). */
  serve(handler: ControlHandler): void {
    this.handler = handler;
  }

  /** Asks every worker (`claim`) or one holder (its process id); rejects on no receiver, timeout or a remote error. */
  async request(to: 'claim' | { holder: string }, op: ControlOp, workspaceId: string, args: unknown, timeoutMs: number): Promise<unknown> {
    // Our reply channel must be listening before anyone can answer (bounded: Redis may be away).
    await Promise.race([this.subscribed, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    const id = randomUUID();
    const body: ControlRequest = { id, from: this.processId, op, workspaceId, args };
    const channel = to === 'claim' ? this.channel('claim') : this.channel('rpc', to.holder);
    const reply = new Promise<ControlReply | undefined>((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(undefined);
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          this.pending.delete(id);
          resolve(answer);
        },
      });
    });
    const receivers = await this.redis.publish(channel, JSON.stringify(body)).catch((error: unknown) => {
      this.pending.get(id)?.resolve({ id, ok: false, error: { name: 'Error', message: String(error) } });
      throw error;
    });
    if (receivers === 0) {
      this.pending.get(id)?.resolve({ id, ok: false });
      throw new NoReceiverError();
    }
    const answer = await reply;
    if (!answer) throw new ControlTimeoutError(op);
    if (!answer.ok) throw new RemoteError(answer.error?.name ?? 'Error', answer.error?.message ?? 'failed');
    return answer.result;
  }

  private dispatch(channel: string, message: string): void {
    let parsed: ControlRequest | ControlReply;
    try {
      parsed = JSON.parse(message) as ControlRequest | ControlReply;
    } catch {
      return;
    }
    if (channel === this.channel('reply', this.processId)) {
      this.pending.get(parsed.id)?.resolve(parsed as ControlReply);
      return;
    }
    void this.answer(parsed as ControlRequest);
  }

  private async answer(request: ControlRequest): Promise<void> {
    if (!this.handler) return;
    let reply: ControlReply;
    try {
      const result = await this.handler(request.op, request.workspaceId, request.args);
      if (result === IGNORED) return;
      reply = { id: request.id, ok: true, result };
    } catch (error) {
      const { name, message } = error instanceof Error ? error : new Error(String(error));
      reply = { id: request.id, ok: false, error: { name, message } };
    }
    await this.redis
      .publish(this.channel('reply', request.from), JSON.stringify(reply))
      .catch((error: unknown) => this.logger.warn(`answer to ${request.op} for ${request.workspaceId} lost: ${String(error)}`));
  }

  private channel(...parts: string[]): string {
    return this.keys.key('chat', 'control', ...parts);
  }
}
