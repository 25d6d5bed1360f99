import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { AppConfig } from '../config/app-config.js';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text only: no HTML means no markup injection through user-supplied names. */
  text: string;
  replyTo?: string;
}

type Transport = ReturnType<typeof createTransport>;

/**
 * Outgoing mail. With `SMTP_URL` set, mails go out over SMTP (nodemailer); without it they are
 * written to the log, links included, so a developer can follow a sign-up on their machine.
 */
@Injectable()
export class MailService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transport | null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly config: AppConfig) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl, { from: config.mailFrom }) : null;
  }

  /**
   * Without SMTP, mails (verification, reset and invite links: working credentials) end up in the
   * log. Fine on a developer's machine; in production it is almost certainly a mistake.
   */
  onApplicationBootstrap(): void {
    if (this.config.nodeEnv === 'production' && !this.transport) {
      this.logger.warn('SMTP_URL is not set: mails are written to the log instead, sign-in links included. Set SMTP_URL in production.');
    }
  }

  /**
   * Sends without making the caller wait. A response must neither be slowed down nor reveal
   * anything by SMTP's timing (forgot-password would otherwise tell which accounts exist), and
   * an SMTP outage must not fail a sign-up. Failures are logged.
   */
  dispatch(message: MailMessage): void {
    const sending = this.send(message).catch((error: unknown) => {
      this.logger.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be sent');
    });
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  /** Sends and waits; throws when the SMTP server refuses. */
  async send(message: MailMessage): Promise<void> {
    if (!this.transport) {
      this.logger.log({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'mail not sent (SMTP_URL is unset)');
      return;
    }
    await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text, replyTo: message.replyTo });
  }

  /** Lets mails already handed over finish before the process exits. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
    this.transport?.close();
  }
}
