import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { MailService } from '../../../infra/mail/mail.service.js';
import type { ContactDto } from './contact.dto.js';

/** The website's contact form: forwarded to CONTACT_EMAIL, or logged when none is configured. */
@Injectable()
export class ContactService {
  private readonly logger = new Logger('Contact');

  constructor(
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  submit(input: ContactDto): { ok: true } {
    if (!this.config.contactEmail) {
      this.logger.log({ contact: input }, 'contact form message (CONTACT_EMAIL is unset)');
      return { ok: true };
    }
    this.mail.dispatch({
      to: this.config.contactEmail,
      // Reply goes straight to the visitor; the From stays ours so SPF/DKIM still pass.
      replyTo: input.email,
      subject: `Contact form: ${input.name.replace(/[\r\n]+/g, ' ')}`,
      text: [`From: ${input.name} <${input.email}>`, '', input.message].join('\n'),
    });
    return { ok: true };
  }
}
