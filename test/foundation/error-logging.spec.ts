import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Param } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Public } from '../../src/modules/auth/decorators/access.decorators.js';
import { LogCapture, type LogLine } from '../support/log-capture.js';
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

const SQL_PARAMETER = 'scrypt$secret-row-value';

/** Queries that fail inside Postgres, with a value bound as a parameter. */
@Public()
@Controller('api/test-sql')
class FailingQueryController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get(':kind')
  async fail(@Param('kind') kind: string): Promise<never> {
    const sql = kind === 'bad-value' ? 'SELECT $1::int' : 'SELECT * FROM no_such_table WHERE name = $1';
    await this.dataSource.query(sql, [SQL_PARAMETER]);
    throw new Error('unreachable');
  }
}

const capture = new LogCapture();
const lines = capture.lines;

/** Whether the request id appears anywhere in the line (as `requestId`, `req.id`, …). */
const mentions = (line: LogLine, id: string): boolean => JSON.stringify(line).includes(id);

describe('an unexpected error in a handler', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      controllers: [BoomController, FailingQueryController],
      env: { LOG_LEVEL: 'info', BODY_LIMIT: '1kb' },
      customize: capture.customize,
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

  it.each([
    ['malformed JSON', 400, () => t.http().post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":')],
    [
      'an oversized body',
      413,
      () =>
        t
          .http()
          .post('/api/auth/login')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify({ email: 'x'.repeat(2048) })),
    ],
    ['a CORS preflight', 204, () => t.http().options('/api/conversations').set('Origin', 'https://app.example.com')],
  ])('logs %s (the last two answered before any route runs) as one line with its status', async (_what, status, send) => {
    const res = await send();
    expect(res.status).toBe(status);
    const id = res.headers['x-request-id'] as string;
    await new Promise((resolve) => setImmediate(resolve));
    const requestLines = capture.mentioning(id).filter((line) => line.res !== undefined);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({ res: { statusCode: status } });
  });

  it('never logs the values bound to a failed query, on a 500 or on a 400 for a value the column refuses', async () => {
    const failed = await t.http().get('/api/test-sql/no-table');
    expect(failed.status).toBe(500);
    const refused = await t.http().get('/api/test-sql/bad-value');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'invalid input' });

    const failure = JSON.stringify(capture.mentioning(failed.headers['x-request-id'] as string));
    expect(failure).toContain('no_such_table'); // the failure is logged, with its SQL
    const refusal = JSON.stringify(capture.mentioning(refused.headers['x-request-id'] as string));
    expect(refusal).toContain('"sqlState":"22P02"');
    for (const logged of [failure, refusal]) expect(logged).not.toContain(SQL_PARAMETER);
  });

  it('leaves load-balancer health probes out of the request log, but not other calls to that path', async () => {
    const probe = await t.http().get('/api/health');
    const wrongMethod = await t.http().delete('/api/health');
    expect(wrongMethod.status).toBe(404);
    await new Promise((resolve) => setImmediate(resolve));
    expect(capture.mentioning(probe.headers['x-request-id'] as string)).toEqual([]);
    expect(capture.mentioning(wrongMethod.headers['x-request-id'] as string)).toHaveLength(1);
  });
});
