import type { MailMessage } from '../../../infra/mail/mail.service.js';

export function verificationMail(to: string, name: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your email address',
    text: [
      `Hello ${name.replace(/[\r\n]+/g, ' ')},`,
      '',
      'Please confirm your email address by opening this link:',
      link,
      '',
      'The link works once and expires in 48 hours. If you did not sign up, ignore this mail.',
    ].join('\n'),
  };
}

export function passwordResetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your password',
    text: [
      'Someone (hopefully you) asked to reset the password of this account. Choose a new one here:',
      link,
      '',
      'The link works once and expires in 1 hour. Resetting signs you out everywhere.',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
