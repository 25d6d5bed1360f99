// Its own file: nestjs-pino keeps one root logger per module registry (per Jest test file), built
// by the first app, so this app must be the first one here to log into the captured stream.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get } from '@nestjs/common';
import { AppConfig } from '../../src/infra/config/app-config.js';
import { LOGGER_PARAMS, loggerParams } from '../../src/infra/logging/logging.module.js';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const SECRET_DETAIL = 'connection string postgres://admin:hunter2@db.internal';

@Public()
@Controller('api/test-boom')
class BoomController {
  @Get()
  boom(): never {
    throw new Error(SECRET_DETAIL);
  }
}

type LogLine = Record<string, unknown> & { level: number; msg?: string };

const lines: LogLine[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
    done();
  },
});

/** Whether the request id appears anywhere in the line (as `requestId`, `req.id`, …). */
const mentions = (line: LogLine, id: string): boolean => JSON.stringify(line).includes(id);

describe('an unexpected error in a handler', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      controllers: [BoomController],
      env: { LOG_LEVEL: 'info' },
      customize: (builder) =>
        builder
          .overrideProvider(LOGGER_PARAMS)
          .useFactory({ factory: (config: AppConfig) => loggerParams(config, capture), inject: [AppConfig] }),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 500 "internal server error" without a stack or the error text, with an X-Request-Id', async () => {
    const res = await t.http().get('/api/test-boom');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal server error' });
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toMatch(/\bat .*\.ts:\d+/);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs the error with the request id the client was given, stack included', async () => {
    const res = await t.http().get('/api/test-boom');
    const id = res.headers['x-request-id'] as string;
    const errorLines = lines.filter((line) => line.level >= 50 && mentions(line, id));
    expect(errorLines.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(errorLines)).toContain('BoomController');
  });

  it('writes one structured line per request carrying its id', async () => {
    const res = await t.http().get('/api/no-such-route').set('X-Request-Id', 'proxy-assigned-id-0001');
    expect(res.headers['x-request-id']).toBe('proxy-assigned-id-0001');
    const requestLines = lines.filter((line) => mentions(line, 'proxy-assigned-id-0001'));
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ req: { method: 'GET', path: '/api/no-such-route' }, res: { statusCode: 404 } });
  });
});
