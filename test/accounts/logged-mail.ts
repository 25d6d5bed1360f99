import type { LogCapture } from '../support/log-capture.js';

interface LoggedMail {
  to: string;
  subject: string;
  text: string;
}

/** The mail logged instead of sent (SMTP_URL unset) to `to` whose subject matches. */
export async function loggedMail(capture: LogCapture, to: string, subject: string): Promise<LoggedMail> {
  const line = await capture.waitFor((l) => {
    const mail = l.mail as LoggedMail | undefined;
    return l.msg === 'mail not sent (SMTP_URL is unset)' && mail?.to === to && mail.subject === subject;
  });
  return line.mail as LoggedMail;
}

/** The first link in `text` that contains `path`. */
export function linkInText(text: string, path: string): URL {
  const match = text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!match) throw new Error(`no ${path} link in:\n${text}`);
  return new URL(match);
}
