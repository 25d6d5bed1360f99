import type { MailMessage } from '../../../infra/mail/mail.service.js';
import type { Role } from '../entities/workspace-member.entity.js';

// Names are user input: no line breaks in a header, whatever the transport does with them.
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ').trim();

export function inviteMail(input: { to: string; workspaceName: string; inviterName: string; role: Role; link: string }): MailMessage {
  const workspace = oneLine(input.workspaceName);
  const inviter = oneLine(input.inviterName) || 'A colleague';
  return {
    to: input.to,
    subject: `You are invited to join ${workspace}`,
    text: [
      `${inviter} invited you to join the workspace "${workspace}" as ${input.role}.`,
      '',
      `Accept the invitation (sign in or create an account with this email address first):`,
      input.link,
      '',
      'The link works once and expires in 7 days. If you did not expect this, ignore this mail.',
    ].join('\n'),
  };
}
