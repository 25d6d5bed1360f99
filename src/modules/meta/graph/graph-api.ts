import { Injectable } from '@nestjs/common';
import { GraphClient } from './graph-client.js';
import { GraphApiError } from './graph-error.js';

/** `GET /{phone-number-id}`: what the settings check reads. */
export interface GraphPhoneNumber {
  id: string;
  display_phone_number?: string;
  verified_name?: string;
}

/** The body of `POST /{phone-number-id}/messages` beyond `messaging_product`. */
export type GraphOutgoing = Record<string, unknown> & { type?: string };

export interface GraphSendResult {
  messages?: { id?: string }[];
}

export interface GraphMediaInfo {
  url?: string;
  mime_type?: string;
  sha256?: string;
  file_size?: number | string;
  id?: string;
}

/** A template as the provider lists it (`GET /{waba-id}/message_templates`). */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status?: string;
  category?: string;
  quality_score?: { score?: string } | string;
  components?: { type?: string; text?: string; format?: string }[];
}

export interface GraphTemplatePage {
  data?: GraphTemplate[];
}

export interface GraphTemplateCreated {
  id: string;
  status?: string;
  category?: string;
}

const TEMPLATE_FIELDS = 'id,name,language,status,category,quality_score,components';

/** Largest inbound media fetched (WhatsApp's own limit for documents is 100 MB). */
export const INBOUND_MEDIA_LIMIT = 100 * 1024 * 1024;

/**
 * The Graph API calls of the cloud channel (research: part B), one method each. Every refusal is
 * a `GraphApiError` with the provider's error object; the caller decides what it means.
 */
@Injectable()
export class GraphApi {
  constructor(private readonly client: GraphClient) {}

  phoneNumber(token: string, phoneNumberId: string): Promise<GraphPhoneNumber> {
    return this.client.call('GET', `/${encodeURIComponent(phoneNumberId)}`, { token, query: { fields: 'id,display_phone_number,verified_name' } });
  }

  /** The numbers of a WABA (first page, up to 100): the settings check confirms the number is one of them. */
  async wabaPhoneNumbers(token: string, wabaId: string): Promise<GraphPhoneNumber[]> {
    const page = await this.client.call<{ data?: GraphPhoneNumber[] }>('GET', `/${encodeURIComponent(wabaId)}/phone_numbers`, {
      token,
      query: { fields: 'id,display_phone_number,verified_name', limit: 100 },
    });
    return Array.isArray(page.data) ? page.data : [];
  }

  /**
   * Subscribes the platform's app to the WABA's webhooks (idempotent at the provider). A 200 that
   * says `success: false` is a refusal too: saved as connected, the number would get no callbacks.
   */
  async subscribeApp(token: string, wabaId: string): Promise<void> {
    const answer = await this.client.call<{ success?: unknown }>('POST', `/${encodeURIComponent(wabaId)}/subscribed_apps`, { token });
    if (answer?.success === false) throw new GraphApiError(200, { message: 'the app could not be subscribed to the WABA (success: false)' });
  }

  /** Embedded Signup step 1: the short-lived code for a business token. */
  async exchangeCode(appId: string, appSecret: string, code: string): Promise<string> {
    const answer = await this.client.call<{ access_token?: string }>('GET', '/oauth/access_token', {
      query: { client_id: appId, client_secret: appSecret, code },
    });
    if (typeof answer.access_token !== 'string' || !answer.access_token) throw new Error('the code exchange answered no access_token');
    return answer.access_token;
  }

  /** Registers the number for the Cloud API, setting its two-step verification PIN. */
  async register(token: string, phoneNumberId: string, pin: string): Promise<void> {
    await this.client.call('POST', `/${encodeURIComponent(phoneNumberId)}/register`, { token, json: { messaging_product: 'whatsapp', pin } });
  }

  send(token: string, phoneNumberId: string, message: GraphOutgoing): Promise<GraphSendResult> {
    return this.client.call('POST', `/${encodeURIComponent(phoneNumberId)}/messages`, {
      token,
      json: { messaging_product: 'whatsapp', ...message },
    });
  }

  async markRead(token: string, phoneNumberId: string, messageId: string): Promise<void> {
    await this.client.call('POST', `/${encodeURIComponent(phoneNumberId)}/messages`, {
      token,
      json: { messaging_product: 'whatsapp', status: 'read', message_id: messageId },
    });
  }

  /**
   * Uploads bytes for a send; answers the media id. The provider names types without parameters
   * (`audio/ogg`, not `audio/ogg; codecs=opus`), so they are left out.
   */
  async uploadMedia(token: string, phoneNumberId: string, data: Buffer, mimeType: string, fileName: string): Promise<string> {
    const type = mimeType.split(';')[0]!.trim();
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('type', type);
    form.set('file', new Blob([data], { type }), fileName || 'file');
    const answer = await this.client.call<{ id?: string }>('POST', `/${encodeURIComponent(phoneNumberId)}/media`, { token, form });
    if (typeof answer.id !== 'string' || !answer.id) throw new Error('the media upload answered no id');
    return answer.id;
  }

  mediaInfo(token: string, mediaId: string, phoneNumberId: string): Promise<GraphMediaInfo> {
    return this.client.call('GET', `/${encodeURIComponent(mediaId)}`, { token, query: { phone_number_id: phoneNumberId } });
  }

  downloadMedia(token: string, url: string): Promise<{ data: Buffer; contentType: string }> {
    return this.client.download(url, token, INBOUND_MEDIA_LIMIT);
  }

  /** The first page of the WABA's templates, up to `limit`. */
  async templates(token: string, wabaId: string, limit: number): Promise<GraphTemplate[]> {
    const answer = await this.client.call<GraphTemplatePage>('GET', `/${encodeURIComponent(wabaId)}/message_templates`, {
      token,
      query: { fields: TEMPLATE_FIELDS, limit },
    });
    return Array.isArray(answer.data) ? answer.data : [];
  }

  /** One template by its id. */
  template(token: string, templateId: string): Promise<GraphTemplate> {
    return this.client.call('GET', `/${encodeURIComponent(templateId)}`, { token, query: { fields: TEMPLATE_FIELDS } });
  }

  createTemplate(token: string, wabaId: string, template: Record<string, unknown>): Promise<GraphTemplateCreated> {
    return this.client.call('POST', `/${encodeURIComponent(wabaId)}/message_templates`, { token, json: template });
  }

  async deleteTemplate(token: string, wabaId: string, name: string, templateId?: string): Promise<void> {
    await this.client.call('DELETE', `/${encodeURIComponent(wabaId)}/message_templates`, { token, query: { name, hsm_id: templateId } });
  }
}
