import { Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { BODY_NOT_AN_OBJECT } from '../../../infra/http/validation.pipe.js';
import type { WorkspaceActor } from '../../auth/auth.types.js';
import { ChannelNotConnectedError, TYPING_STATES, type TypingState } from '../../channels/channel-gateway.port.js';
import { ChannelRegistry } from '../../channels/channel-registry.service.js';
import { toChannelConversation } from '../messages/message-target.js';
import { NOT_CONNECTED } from '../messages/send-message.service.js';
import { ConversationRepository } from './conversation.repository.js';
import { viewerOf } from './conversation-viewer.js';

export const TYPING_STATE_RULE = `state must be one of ${TYPING_STATES.join(', ')}`;
export const TYPING_DURATION_RULE = 'duration_ms must be an integer from 1 to 30000';
export const NO_TYPING_HERE = 'this channel has no typing indicator';
export const TYPING_NOT_SENT = 'WhatsApp did not take the typing indicator in time; try again';
const MAX_DURATION_MS = 30_000;

/**
 * `POST /api/conversations/:id/typing`: shows the contact "typing…" (or "recording audio…"), or
 * stops it; with `duration_ms` it stops by itself then (WhatsApp clears it anyway when a message
 * arrives, or after about 25 s).
 */
@Injectable()
export class ConversationTypingService {
  private readonly logger = new Logger('Typing');

  constructor(
    private readonly conversations: ConversationRepository,
    private readonly channels: ChannelRegistry,
  ) {}

  async typing(actor: WorkspaceActor, conversationId: string, body: unknown): Promise<{ ok: true }> {
    if (Array.isArray(body) || (body !== undefined && body !== null && typeof body !== 'object')) throw ApiError.badRequest(BODY_NOT_AN_OBJECT);
    const { state, durationMs } = parseTyping(body);
    const conversation = await this.conversations.find(actor.workspaceId, viewerOf(actor), conversationId);
    if (!conversation) throw ApiError.notFound('conversation not found');
    const gateway = this.channels.gatewayFor(conversation.channel);
    if (!gateway?.typing) throw ApiError.badRequest(NO_TYPING_HERE);
    const target = toChannelConversation(conversation);
    try {
      await gateway.typing(actor.workspaceId, target, state);
    } catch (error) {
      if (error instanceof ChannelNotConnectedError) throw ApiError.conflict(NOT_CONNECTED);
      this.logger.warn({ err: error, workspaceId: actor.workspaceId }, 'typing indicator not sent');
      throw new ApiError(502, TYPING_NOT_SENT);
    }
    if (durationMs !== null && state !== 'paused') {
      setTimeout(() => {
        gateway.typing!(actor.workspaceId, target, 'paused').catch((error: unknown) => this.logger.debug({ err: error }, 'typing not stopped'));
      }, durationMs).unref();
    }
    return { ok: true };
  }
}

function parseTyping(body: unknown): { state: TypingState; durationMs: number | null } {
  const fields = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const state = fields.state === undefined ? 'composing' : fields.state;
  if (typeof state !== 'string' || !(TYPING_STATES as readonly string[]).includes(state)) throw ApiError.badRequest(TYPING_STATE_RULE);
  const duration = fields.duration_ms;
  if (duration !== undefined && (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 1 || duration > MAX_DURATION_MS)) {
    throw ApiError.badRequest(TYPING_DURATION_RULE);
  }
  return { state: state as TypingState, durationMs: typeof duration === 'number' ? duration : null };
}
