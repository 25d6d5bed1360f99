import { Module } from '@nestjs/common';
import { MailService } from './mail.service.js';

/** Outgoing mail (nodemailer over SMTP_URL, or the log). Import it where mail is sent. */
@Module({ providers: [MailService], exports: [MailService] })
export class MailModule {}
