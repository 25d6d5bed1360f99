import { Injectable } from '@nestjs/common';
import { ChannelError } from '../../channels/channel-gateway.port.js';
import type { ScanNumberLookup, ScanOutgoing, ScanPresence, ScanReadKey, ScanSent } from '../driver/scan-driver.port.js';
import { encodeOutgoing } from './outgoing-wire.js';
import { ControlTimeoutError, NoReceiverError, RemoteError, type ControlOp, ScanControlBus } from './scan-control.bus.js';
import { ScanLeases } from './scan-leases.js';
import { ScanLiveStateStore } from './scan-live-state.store.js';
import { ScanSessionManager } from './scan-session.manager.js';
import { ScanLookupTimeoutError, ScanNotConnectedError, ScanSessions, type ScanSessionState } from './scan-sessions.port.js';
import { ScanStateService } from './scan-state.service.js';

// A media send uploads the file first; a slow upload must not be mistaken for a dead holder.
const SEND_TIMEOUT_MS = 60_000;
const MARK_READ_TIMEOUT_MS = 15_000;
const PRESENCE_TIMEOUT_MS = 15_000;
// Past the socket's own bound (LOOKUP_TIMEOUT_MS, 10 s): the holder answers its timeout first.
const LOOKUP_TIMEOUT_MS = 15_000;

/**
 * `ScanSessions` from any process: calls the socket directly when this process holds it, else
 * asks the holder over the control bus. No holder, or a holder that is gone, is "not connected".
 */
@Injectable()
export class ScanSessionsService extends ScanSessions {
  constructor(
    private readonly state$: ScanStateService,
    private readonly live: ScanLiveStateStore,
    private readonly leases: ScanLeases,
    private readonly bus: ScanControlBus,
    private readonly manager: ScanSessionManager,
  ) {
    super();
  }

  async state(workspaceId: string): Promise<ScanSessionState> {
    return sessionState(await this.state$.read(workspaceId));
  }

  async isConnected(workspaceId: string): Promise<boolean> {
    return (await this.live.read(workspaceId)).connected;
  }

  async send(workspaceId: string, jid: string, outgoing: ScanOutgoing): Promise<ScanSent> {
    const local = this.manager.local(workspaceId);
    if (local) return local.send(jid, outgoing);
    const result = await this.ask(workspaceId, 'send', { jid, outgoing: encodeOutgoing(outgoing) }, SEND_TIMEOUT_MS);
    return result as ScanSent;
  }

  async markRead(workspaceId: string, keys: readonly ScanReadKey[]): Promise<void> {
    const local = this.manager.local(workspaceId);
    if (local) return local.markRead(keys);
    await this.ask(workspaceId, 'markRead', { keys }, MARK_READ_TIMEOUT_MS);
  }

  async presence(workspaceId: string, jid: string, state: ScanPresence): Promise<void> {
    const local = this.manager.local(workspaceId);
    if (local) return local.presence(jid, state);
    await this.ask(workspaceId, 'presence', { jid, state }, PRESENCE_TIMEOUT_MS);
  }

  async lookup(workspaceId: string, phones: readonly string[]): Promise<ScanNumberLookup[]> {
    const local = this.manager.local(workspaceId);
    if (local) return local.lookup(phones);
    return (await this.ask(workspaceId, 'lookup', { phones }, LOOKUP_TIMEOUT_MS)) as ScanNumberLookup[];
  }

  private async ask(workspaceId: string, op: ControlOp, args: unknown, timeoutMs: number): Promise<unknown> {
    const holder = await this.leases.holder(workspaceId);
    if (!holder) throw new ScanNotConnectedError();
    try {
      return await this.bus.request({ holder: ScanLeases.processOf(holder) }, op, workspaceId, args, timeoutMs);
    } catch (error) {
      if (error instanceof NoReceiverError) throw new ScanNotConnectedError();
      if (error instanceof RemoteError && error.name === 'ScanNotConnectedError') throw new ScanNotConnectedError();
      // The holder's channel errors keep their kind, so the inbox answers as it would locally.
      if (error instanceof RemoteError && error.name === 'ChannelError') throw new ChannelError(error.message);
      if (error instanceof RemoteError && error.name === 'ScanLookupTimeoutError') throw new ScanLookupTimeoutError();
      if (error instanceof ControlTimeoutError) throw new Error(`the worker holding the session did not answer ${op} in time`, { cause: error });
      throw error;
    }
  }
}

/** The contract's session state (docs/contract.md#session-state), without the status route's extras. */
export function sessionState(status: ScanSessionState): ScanSessionState {
  const state: ScanSessionState = { connected: status.connected, logged_in: status.logged_in, qr_pending: status.qr_pending };
  if (status.jid !== undefined) state.jid = status.jid;
  return state;
}
