import type { ChannelName } from '../../channels/channel-gateway.port.js';
import type { OutboxEvent } from '../outbox/webhook-outbox.service.js';
import { rfc3339 } from './scan-chat.payload.js';

/**
 * The body of `session.status` (docs/webhooks.md#sessionstatus): flat like `scan.chat`, every
 * field always present ('' when unknown).
 */
export interface SessionStatusPayload {
  event: 'session.status';
  channel: ChannelName;
  workspace_id: string;
  /** When the change happened: when the new state began (RFC 3339 UTC, to the second). */
  timestamp: string;
  /** scan: the `state` of GET /api/chat/status; meta: `connected`, `disconnected` or `token_refused`. */
  state: string;
  /** The state before; '' when unknown. */
  previous_state: string;
  /** RFC 3339 of when this state began. */
  since: string;
  /** What needs a person, '' otherwise. */
  error: string;
  connected: boolean;
  /** scan: the number is linked; meta: settings are present. */
  logged_in: boolean;
  /** scan: the linked number's jid; '' otherwise. */
  jid: string;
  /** meta: the Cloud number's id; '' for scan. */
  phone_number_id: string;
}

/** A state change of a number, as its channel tells it. */
export interface SessionStatusChange {
  channel: ChannelName;
  state: string;
  previousState: string | null;
  since: Date | string;
  error?: string | null;
  connected: boolean;
  loggedIn: boolean;
  jid?: string | null;
  phoneNumberId?: string | null;
}

export function sessionStatusPayload(workspaceId: string, change: SessionStatusChange): SessionStatusPayload {
  const since = rfc3339(change.since);
  return {
    event: 'session.status',
    channel: change.channel,
    workspace_id: workspaceId,
    timestamp: since,
    state: change.state,
    previous_state: change.previousState ?? '',
    since,
    error: change.error ?? '',
    connected: change.connected,
    logged_in: change.loggedIn,
    jid: change.jid ?? '',
    phone_number_id: change.phoneNumberId ?? '',
  };
}

/**
 * The outbox event of a state change. Keyed by channel, state and the instant it began (to the
 * millisecond): one state change is one event, however many processes or retries report it.
 * Its channel is the number's (the `channels` filter); no group notion (`include_groups` never
 * drops it).
 */
export function sessionStatusEvent(workspaceId: string, change: SessionStatusChange): OutboxEvent {
  return {
    event: 'session.status',
    body: JSON.stringify(sessionStatusPayload(workspaceId, change)),
    sourceKey: `session:${change.channel}:${change.state}:${new Date(change.since).toISOString()}`,
    channel: change.channel,
  };
}
