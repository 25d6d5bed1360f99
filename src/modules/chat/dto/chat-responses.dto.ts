import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SendLimitsUseResponse } from '../../inbox/outbound/dto/sending.dto.js';
import { PASSKEY_STATES, type PasskeyState, SESSION_STATES, type SessionStateName } from '../session/session-state.js';

// Wire shapes of docs/contract.md#resources and docs/chat.md#endpoints.

export class SessionStateResponse {
  @ApiProperty({ description: 'The linked session is connected to the channel' })
  connected: boolean;

  @ApiProperty({
    description:
      'The number is linked (paired) to this workspace: from the moment the phone scanned the code. Until the link is finished ' +
      '(the channel restarts the connection and logs in, usually a few seconds) `connected` is still false and no code is pending',
  })
  logged_in: boolean;

  @ApiProperty({ description: 'A QR code is waiting to be scanned' })
  qr_pending: boolean;

  @ApiPropertyOptional({ example: '4915123456789:12@s.whatsapp.net', description: 'Channel id of the linked number, once linked' })
  jid?: string;
}

export class SyncStateResponse {
  @ApiProperty({ enum: ['idle', 'running', 'done'], description: 'History sync after linking' })
  state: string;

  @ApiProperty({ minimum: 0, maximum: 100 })
  progress: number;
}

export class ScanEndpointResponse {
  @ApiProperty({
    example: 'wss://web.whatsapp.com/ws/chat',
    description: "The WhatsApp WebSocket URL the sessions connect to (WA_WEBSOCKET_URL, or WhatsApp's own), without user, password, query or fragment",
  })
  url: string;

  @ApiProperty({ description: "`url` is WhatsApp's own endpoint (wss://web.whatsapp.com/ws/chat); false: a simulator or another endpoint" })
  default: boolean;

  @ApiProperty({ description: 'The service does not run with NODE_ENV=production' })
  development: boolean;
}

export class ScanPlacementResponse {
  @ApiProperty({
    enum: ['held', 'waiting', 'unplaced'],
    description:
      '`held`: a worker holds its socket; `waiting`: it has a home, which takes it within seconds (a worker started, stopped or died, or the number is moving to a new home); ' +
      '`unplaced`: no worker has room for it',
  })
  state: 'held' | 'waiting' | 'unplaced';

  @ApiProperty({ example: 'a worker holds this number', description: 'What `state` means for this number, in words' })
  explanation: string;
}

export class PasskeyStatusResponse {
  @ApiProperty({ enum: PASSKEY_STATES, description: 'The same as the status `state`' })
  state: PasskeyState;

  @ApiProperty({ description: 'What the person does now, in words' })
  explanation: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'ABCD-EFGH',
    description: 'In `passkey_confirmation`: the code the phone shows, to compare before `POST /api/chat/passkey/confirm`; else null',
  })
  code: string | null;

  @ApiProperty({ format: 'date-time', description: "When the ceremony gives up (CHAT_PASSKEY_TIMEOUT_MS, at most WhatsApp's own timeout)" })
  expires_at: string;
}

export class SessionStatusResponse extends SessionStateResponse {
  @ApiProperty({
    enum: SESSION_STATES,
    example: 'connected',
    description:
      'The session by name, beside the flags (which keep their meaning): `stopped` (not started, stopped on purpose, or its QR codes ran out), ' +
      '`starting` (opening, a number not linked yet), `qr` (a QR code waits; `qr_pending`), `pairing_code` (a pairing code waits to be entered on the phone), ' +
      '`passkey_required` (WhatsApp asked for its passkey check instead of linking: `error` says what to do; nothing was linked; with CHAT_PASSKEY_CEREMONY on, ' +
      'the ceremony waits for the person: `passkey`), `passkey_assertion` (the browser has the challenge), `passkey_confirmation` (the phone shows `passkey.code`), ' +
      "`connecting` (a linked number's " +
      'socket opens, or a scan is being finished), `connected`, `reconnecting` (the connection was lost; backing off before the next try), ' +
      '`logged_out` (the phone or WhatsApp removed the device; `error` says so), `failed` (stopped on an error: `error`)',
  })
  state: SessionStateName;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T07:00:00.000Z', description: 'Since when `state` holds (RFC 3339)' })
  since: string;

  @ApiPropertyOptional({
    example: 'logged out from the phone (the device was removed in Linked devices): call POST /api/chat/connect to link the number again',
    description:
      'Why the session stopped on its own, when a person must act: logged out from the phone (the device was removed in Linked devices; `logged_in` is then false), ' +
      "banned, replaced by another connection, failing again and again, WhatsApp's passkey check (`passkey_required`), a pairing code that expired. " +
      'Absent once it connects, and after a connect, stop or disconnect here',
  })
  error?: string;

  @ApiPropertyOptional({
    type: PasskeyStatusResponse,
    description:
      "Only during the passkey ceremony's states (CHAT_PASSKEY_CEREMONY on): what the person does now (also in `error`), the code once the phone shows one, " +
      'and when the ceremony gives up (docs/passkey.md)',
  })
  passkey?: PasskeyStatusResponse;

  @ApiProperty({ type: SyncStateResponse })
  sync: SyncStateResponse;

  @ApiPropertyOptional({
    type: ScanEndpointResponse,
    description: 'Where the sessions of this service connect (the same for every workspace). Only for signed-in members (the Console); absent for API keys',
  })
  endpoint?: ScanEndpointResponse;

  @ApiProperty({
    type: SendLimitsUseResponse,
    description:
      "The number's caps and what it used of them in the last 24 hours (new chats started, chats at the unanswered cap), and its outbound queue; " +
      'the settings are at `GET /api/chat/limits`',
  })
  limits: SendLimitsUseResponse;

  @ApiProperty({
    type: ScanPlacementResponse,
    nullable: true,
    description:
      'Where the linked number lives among the worker processes; null while it is not linked or not wanted (stopped). ' +
      '`unplaced`: every worker holds CHAT_MAX_SESSIONS_PER_WORKER numbers, so none takes it (start another worker or raise the cap)',
  })
  placement: ScanPlacementResponse | null;
}

export class QrCodeResponse {
  @ApiPropertyOptional({ description: 'The raw QR payload; absent when there is no code' })
  code?: string;

  @ApiProperty({ example: 'data:image/png;base64,iVBORw0KGgo…', description: 'The code as a 256 px PNG data URL; empty when there is no code' })
  image: string;

  @ApiProperty({ description: 'true while a code waits to be scanned (it rotates: poll every few seconds)' })
  pending: boolean;

  @ApiPropertyOptional({
    format: 'date-time',
    example: '2026-11-22T07:01:00.000Z',
    description:
      'Only with a code: when it stops being valid, i.e. when the channel shows the next one (about 60 s after the first code of a connect, ' +
      '20 s after each rotation) or, after the last, the codes expire. Re-read the QR endpoint then',
  })
  expires_at?: string;

  @ApiPropertyOptional({
    example: 'no QR code is waiting to be scanned: call POST /api/chat/connect first',
    description:
      'Only when there is no code: call connect first, the previous code expired, or (between the scan and `connected`) ' +
      'the code was scanned and the number is being linked',
  })
  error?: string;

  @ApiPropertyOptional({ description: 'Only when there is no code: the same text as `error`' })
  message?: string;
}

export class PairingCodeResponse {
  @ApiProperty({
    example: 'ABCD-EFGH',
    description: 'The code to type on the phone (WhatsApp → Linked devices → Link a device → Link with phone number instead)',
  })
  code: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: '2026-11-22T07:02:40.000Z',
    description:
      "When the connection that asked for it stops waiting (about 160 s after the session started registering), by the channel's timing; null when unknown. " +
      'After it, status `error` says the code expired',
  })
  expires_at: string | null;
}
