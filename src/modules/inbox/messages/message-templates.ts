import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import type { OutgoingTemplate } from '../../channels/channel-gateway.port.js';
import { MAX_TEXT } from '../dto/message.dto.js';

/** The 400 of a template whose parameters make its text longer than a text message may be. */
export const TEMPLATE_TOO_LONG = `the filled-in template must be shorter than or equal to ${MAX_TEXT} characters`;

/** A workspace's template with its parameters filled in, ready to send. */
export interface RenderedTemplate {
  /** The filled-in body: stored as the message's content, and sent as a text by channels without templates. */
  body: string;
  /** Set for a provider's template (Cloud API): a channel that can sends it by name instead. */
  provider: Omit<OutgoingTemplate, 'body' | 'messageId'> | null;
}

/**
 * Fills a template in. It throws the API's own errors: `ApiError` 404 for an unknown template,
 * 400 for missing or extra parameters.
 */
export interface TemplateRenderer {
  render(workspaceId: string, templateId: string, parameters: readonly string[]): Promise<RenderedTemplate>;
}

/**
 * Where the content module (which owns templates and imports the inbox) plugs in its renderer, so
 * a send with `type: "template"` can be filled in without the inbox importing it back.
 */
@Injectable()
export class MessageTemplates {
  private renderer: TemplateRenderer | null = null;

  /** Returns a function that removes the renderer again. */
  provide(renderer: TemplateRenderer): () => void {
    this.renderer = renderer;
    return () => {
      if (this.renderer === renderer) this.renderer = null;
    };
  }

  /**
   * The filled-in text is held to a text message's limit (characters as `body` counts them: code
   * points), whatever the parameters: each may be long, and a template may take many.
   */
  async render(workspaceId: string, templateId: string, parameters: readonly string[]): Promise<RenderedTemplate> {
    if (!this.renderer) throw ApiError.notFound('template not found');
    const rendered = await this.renderer.render(workspaceId, templateId, parameters);
    if (rendered.body.length > MAX_TEXT && countCodePoints(rendered.body) > MAX_TEXT) throw ApiError.badRequest(TEMPLATE_TOO_LONG);
    return rendered;
  }
}

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
