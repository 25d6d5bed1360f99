import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  /** The raw message (headers and body) as received. */
  raw: string;
  subject: string;
  /** The body with quoted-printable soft breaks undone, good enough to find links in. */
  text: string;
}

/**
 * A local SMTP server that keeps every message it receives, so a test can point `SMTP_URL` at it
 * and follow the links the service mails. Plain SMTP on 127.0.0.1, no TLS, any or no auth.
 */
export class SmtpCapture {
  readonly mails: CapturedMail[] = [];
  private waiters: { predicate: (mail: CapturedMail) => boolean; resolve: (mail: CapturedMail) => void }[] = [];
  private port = 0;

  private readonly server = new SMTPServer({
    authOptional: true,
    hideSTARTTLS: true,
    disableReverseLookup: true,
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        this.receive({ from, to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw, ...parse(raw) });
        callback();
      });
    },
  });

  /** Starts listening on a free port; `url` is then the SMTP_URL to give the app. */
  async start(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The first mail (already received or still to come) to `to` that matches, within `timeoutMs`. */
  waitFor(to: string, predicate: (mail: CapturedMail) => boolean = () => true, timeoutMs = 5000): Promise<CapturedMail> {
    const matches = (mail: CapturedMail): boolean => mail.to.includes(to.toLowerCase()) && predicate(mail);
    const found = this.mails.find(matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter = { predicate: matches, resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${this.mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join('; ')})`));
      }, timeoutMs).unref();
    });
  }

  /** Mails received so far for `to`. */
  to(address: string): CapturedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  clear(): void {
    this.mails.length = 0;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(mail: CapturedMail): void {
    this.mails.push(mail);
    for (const waiter of [...this.waiters]) {
      if (waiter.predicate(mail)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(mail);
      }
    }
  }
}

function parse(raw: string): { subject: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split + 4) : '';
  const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(headers)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
  const encoding = /^Content-Transfer-Encoding: *([\w-]+)/im.exec(headers)?.[1]?.toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : body;
  return { subject, text };
}

/** The first URL in a mail that contains `path` (e.g. `/verify-email`). */
export function linkIn(mail: CapturedMail, path: string): URL {
  const match = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.includes(path));
  if (!match) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  return new URL(match);
}
