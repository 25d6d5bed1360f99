import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SmtpCapture } from '../support/smtp-capture.js';
import { createTestApp } from '../support/test-app.js';
import { LogCapture } from '../support/log-capture.js';

const WARNING = 'SMTP_URL is not set: mails are written to the log instead, sign-in links included. Set SMTP_URL in production.';
const PRODUCTION = { NODE_ENV: 'production', ENCRYPTION_KEY: randomBytes(32).toString('base64'), LOG_LEVEL: 'info' };

// Its own file: the capture belongs to the first app of the file, and the apps booted after it
// log into the same capture (one pino root logger per test file), so each test boots its app,
// reads the lines that boot wrote, and closes it.
describe('the mail service warns at boot when production mails would go to the log', () => {
  const capture = new LogCapture();
  let smtp: SmtpCapture;
  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  async function bootLines(env: Record<string, string>): Promise<typeof capture.lines> {
    const before = capture.lines.length;
    const t = await createTestApp({ env, customize: capture.customize });
    await t.close();
    return capture.lines.slice(before);
  }

  it('NODE_ENV=production without SMTP_URL: one warning', async () => {
    const warnings = (await bootLines(PRODUCTION)).filter((line) => line.msg === WARNING);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
  });

  it('no warning in production with SMTP_URL, nor outside production without it', async () => {
    const withSmtp = await bootLines({ ...PRODUCTION, SMTP_URL: smtp.url });
    const development = await bootLines({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
    // The capture saw both boots (Nest logs its module initialisation at info).
    expect(withSmtp.length).toBeGreaterThan(0);
    expect(development.length).toBeGreaterThan(0);
    expect([...withSmtp, ...development].filter((line) => line.msg === WARNING)).toEqual([]);
  });
});
