import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccountsApp, type AccountsTestApp } from '../accounts/accounts-support.js';
import { FakeGraphApi } from '../fakes/graph-api/index.js';
import {
  bodySchemaOf,
  exampleOf,
  type KnownValues,
  type OpenApiDocument,
  operationsOf,
  PLACEHOLDER_ID,
  problems,
  resolve,
  variantCount,
} from '../support/openapi-examples.js';
import { linkIn, SmtpCapture } from '../support/smtp-capture.js';

/**
 * The document states every rule the validation enforces: a request body that is valid by
 * /api/openapi.json is never refused with 400. Each operation's body is built from the document
 * alone (its examples, else the simplest value its schema allows), in every variant of a oneOf
 * (a text, image, document or template send; each kind of automation action) and both minimal
 * (required fields) and full (every field), checked against the document, and sent. The state it
 * meets may refuse it (404 for the placeholder ids in paths, 409, 502/503 from an upstream), but
 * never as invalid input. Ids and tokens a body must name for real come from real state.
 */
describe('schema-valid bodies, built from the OpenAPI document, are never a 400', () => {
  let smtp: SmtpCapture;
  let graph: FakeGraphApi;
  let t: AccountsTestApp;
  let doc: OpenApiDocument;
  let headers: Record<string, string>;
  let known: KnownValues;
  let perOperation: Record<string, KnownValues>;

  const tokenFrom = async (email: string, subject: string, path: string): Promise<string> =>
    linkIn(await smtp.waitFor(email, (mail) => mail.subject.startsWith(subject)), path).searchParams.get('token')!;

  beforeAll(async () => {
    smtp = await new SmtpCapture().start();
    graph = await FakeGraphApi.start({ appId: '1234567890', appSecret: 'fake-app-secret-for-tests' });
    t = await createAccountsApp({ env: { SMTP_URL: smtp.url, META_GRAPH_URL: graph.url } });
    doc = (await t.http().get('/api/openapi.json')).body as OpenApiDocument;
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    headers = { Cookie: owner.cookie, 'X-Tenant-ID': workspace.id, Origin: t.config.publicUrl };

    // The number of the settings' examples exists at the provider, with the token of the example.
    const settings = resolve(doc, { $ref: '#/components/schemas/PutMetaSettingsDto' }).properties!;
    graph.world.addNumber(
      { id: settings.phone_number_id!.example as string, wabaId: settings.waba_id!.example as string },
      settings.access_token!.example as string,
    );

    // A template and a member the examples' ids can name (automation actions check them), and
    // the parameters that template takes.
    const template = await t.http().post('/api/templates').set(headers).send({ name: 'sweep', body: 'Hello {{1}}' });
    expect(template.status).toBe(201);
    // A label the `add_label` action names, and a member a note may mention.
    const label = await t.http().post('/api/labels').set(headers).send({ name: 'sweep' });
    expect(label.status).toBe(201);
    known = { template_id: template.body.id, parameters: ['Ada'], user_id: owner.id, label_id: label.body.id, mentions: [owner.id] };

    // Tokens from real mails: each is sent once (identical bodies are sent once).
    const account = await t.factories.user({ email: 'tokens@example.test', verified: false });
    await t.http().post('/api/auth/forgot-password').send({ email: account.email }).expect(200);
    await t.http().post('/api/auth/resend-verification').send({ email: account.email }).expect(200);
    t.resetRateLimits();
    await t.http().post('/api/invites').set(headers).send({ email: 'invitee@example.test', role: 'agent' }).expect(201);
    perOperation = {
      'POST /api/auth/reset-password': { token: await tokenFrom(account.email, 'Reset your password', '/reset-password') },
      'POST /api/auth/verify-email': { token: await tokenFrom(account.email, 'Confirm your email', '/verify-email') },
      'POST /api/invites/accept': { token: await tokenFrom('invitee@example.test', 'You are invited', '/accept-invite') },
    };
  });
  afterAll(async () => {
    await t?.close();
    await graph?.close();
    await smtp?.stop();
  });

  it('builds a schema-valid body for every operation that takes one, in each variant', () => {
    const invalid: string[] = [];
    let built = 0;
    for (const [method, path, operation] of operationsOf(doc)) {
      const schema = bodySchemaOf(operation);
      if (!schema) continue;
      for (let variant = 0; variant < variantCount(doc, schema); variant++) {
        for (const full of [false, true]) {
          const body = exampleOf(doc, schema, { full, variant, known });
          built++;
          for (const problem of problems(doc, schema, body)) invalid.push(`${method.toUpperCase()} ${path} ${JSON.stringify(body)}: ${problem}`);
        }
      }
    }
    expect(invalid).toEqual([]);
    expect(built).toBeGreaterThan(50);
  });

  it('answers none of them with 400 (or a 5xx the document does not list)', async () => {
    const refused: string[] = [];
    const sent: string[] = [];
    for (const [method, template, operation] of operationsOf(doc)) {
      const schema = bodySchemaOf(operation);
      if (!schema) continue;
      const at = `${method.toUpperCase()} ${template}`;
      const path = template.replace(/\{[^}]+\}/g, PLACEHOLDER_ID);
      const bodies = new Set<string>();
      // Full bodies first: they may create what a minimal one needs (the Cloud API token it keeps).
      for (const full of [true, false]) {
        for (let variant = 0; variant < variantCount(doc, schema); variant++) {
          bodies.add(JSON.stringify(exampleOf(doc, schema, { full, variant, known: { ...known, ...perOperation[at] } })));
        }
      }
      for (const body of bodies) {
        t.resetRateLimits();
        const res = await t.http()[method as 'post'](path).set(headers).set('Content-Type', 'application/json').send(body);
        sent.push(`${at} ${res.status}`);
        const declared = Object.keys(operation.responses).includes(String(res.status));
        if (res.status === 400 || (res.status >= 500 && !declared)) refused.push(`${at} ${body}: ${res.status} ${res.text}`);
      }
    }
    expect(refused).toEqual([]);
    // The sweep reaches the operations named in the issue, and their state answers.
    expect(sent).toEqual(
      expect.arrayContaining([
        'POST /api/webhooks 201',
        'POST /api/templates 201',
        'POST /api/automations 201',
        'POST /api/contacts 201',
        'POST /api/conversations 409',
        'POST /api/conversations/{id}/messages 404',
        'POST /api/auth/reset-password 200',
        'PUT /api/meta/settings 200',
      ]),
    );
  });
});
