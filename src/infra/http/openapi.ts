import { applyDecorators, type INestApplication } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { refuseDeferredInput } from './deferred-input.js';
import { applyValidationRules } from './schema-rules.js';

export const API_KEY_SECURITY = 'apiKey';
export const SESSION_SECURITY = 'session';

/** The body of every error (docs/api.md, "Errors"). */
export class ErrorResponse {
  @ApiProperty({ example: 'conversation not found', description: 'Human-readable; branch on the HTTP status, not on this text.' })
  error: string;

  @ApiPropertyOptional({ example: 'not_found', description: '`payment_required` (402) or `not_found` (unknown path)' })
  code?: string;
}

/**
 * Error statuses a route declares with `@ApiErrors`, each with the exact text(s) it sends, or a
 * description that quotes them ("`contact not found`: unknown or deleted").
 */
export type ErrorTexts = Partial<Record<400 | 401 | 402 | 403 | 404 | 409 | 413 | 429 | 500 | 502 | 503, string | readonly string[]>>;

/** An exact error text is shown in backticks; a text that has backticks already is a description. */
const quoted = (texts: string | readonly string[]): string =>
  (typeof texts === 'string' ? [texts] : texts).map((t) => (t.includes('`') ? t : `\`${t}\``)).join(', ');

/**
 * Declares the errors a route answers beyond those its access decorator and input imply (those are
 * added for every route by `completeOperation`): `@ApiErrors({ 404: 'invite not found' })`. On a
 * class it applies to every route of the controller. The test suite fails when a route answers a
 * status its document does not list (test/support/status-recorder.ts).
 */
export const ApiErrors = (errors: ErrorTexts): MethodDecorator & ClassDecorator =>
  applyDecorators(...Object.entries(errors).map(([status, texts]) => ApiResponse({ status: Number(status), description: quoted(texts!) })));

interface Parameter {
  name: string;
  in: string;
  description?: string;
  schema?: Record<string, unknown>;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
  'x-access'?: string;
  'x-subscription-exempt'?: boolean;
  'x-cross-site-checked'?: boolean;
  'x-rate-limit'?: unknown;
}

const NOT_JSON = '`request body must be JSON (Content-Type: application/json)` (a body with another Content-Type)';
const BODY_TEXTS = [
  '`malformed JSON body`',
  '`request body must be a JSON object` (an array or a bare value)',
  '`JSON body must be valid UTF-8`',
  '`JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`',
  '`text must be well-formed Unicode (no lone surrogates)`',
  '`request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`',
];
const NUL = '`text must not contain NUL characters (\\u0000)`';
const MALFORMED_QUERY = '`malformed URL encoding` (a query string whose escapes are not UTF-8)';
const CROSS_SITE = '`cross-site request refused: origin not allowed` (a browser request that changes something, from another site)';
const KEYS_REFUSED = '`API keys cannot administer workspaces`';
const WORKSPACE_SELECTION = '`workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id`';

const TENANT_PARAMETERS = [
  {
    name: 'X-Tenant-ID',
    in: 'header',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description:
      'The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 ' +
      '`API key belongs to a different workspace`); with a session required, here or as `?tenant=` ' +
      '(400 `workspace required (X-Tenant-ID)`).',
  },
  {
    name: 'tenant',
    in: 'query',
    required: false,
    schema: { type: 'string', format: 'uuid' },
    description: 'The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`).',
  },
];

const isWorkspaceRoute = (access: string): boolean => access === 'member' || access === 'session' || access === 'console';

/**
 * The statuses every route answers because of its access rule and the HTTP plumbing, with their
 * texts. Derived from the access decorators (`x-access`, `x-subscription-exempt`, …), so a new
 * route gets them without repeating them; its own errors come from `@ApiErrors`.
 */
function impliedErrors(operation: Operation): Record<string, string[]> {
  const access = operation['x-access'] ?? 'member'; // routes without a decorator are member routes
  const errors: Record<string, string[]> = {
    // Any route: a body that is not JSON, a NUL or a malformed escape in the query string (input validation, after the guards).
    '400': [
      operation.requestBody || operation.parameters?.length ? 'invalid input: a readable message naming each problem (the first ten; the rest counted)' : '',
      NOT_JSON,
      NUL,
      MALFORMED_QUERY,
    ],
    '500': ['`internal server error`: unexpected (retry with backoff)'],
    '503': ['`service temporarily unavailable, please retry`: Postgres or Redis is unreachable'],
  };
  const add = (status: string, ...texts: string[]): void => void (errors[status] ??= []).push(...texts);
  if (operation.requestBody) {
    add('400', ...BODY_TEXTS);
    add('413', '`payload too large`');
  }
  if (access === 'public' && operation['x-cross-site-checked']) add('403', CROSS_SITE);
  if (access === 'user') {
    add('401', '`unauthorized`: no valid session');
    add('403', `${KEYS_REFUSED} (an API key)`, CROSS_SITE);
  }
  if (isWorkspaceRoute(access)) {
    add('400', WORKSPACE_SELECTION);
    add('401', '`unauthorized` (no credentials)', '`invalid or expired API key`');
    add('403', '`API key belongs to a different workspace`', '`forbidden` (not a member)', CROSS_SITE);
    if (access === 'member') add('403', '`API key is read-only` (a read key on a method other than GET)');
    if (access !== 'member') add('403', KEYS_REFUSED);
    if (access === 'console') add('403', '`admin required` (an agent)');
  }
  if (isWorkspaceRoute(access) && !operation['x-subscription-exempt']) {
    add('402', '`subscription required` with `code: "payment_required"` (only when subscriptions are enforced)');
  }
  return errors;
}

/**
 * Completes what decorators leave out, uniformly: the workspace selection parameters of workspace
 * routes, the errors implied by the access rule (merged with the route's own texts), and the
 * error schema on every error response.
 */
function completeOperation(operation: Operation): void {
  const access = operation['x-access'] ?? 'member';
  for (const parameter of operation.parameters ?? []) {
    // Path ids (`{id}`, `{user_id}`) are UUIDs; a malformed one is 400 `invalid … id`.
    if (parameter.in === 'path' && /(^|_)id$/.test(parameter.name)) {
      parameter.schema = { type: 'string', format: 'uuid' };
      parameter.description ??= 'A UUID; a malformed one is 400 `invalid … id`';
    }
  }
  if (isWorkspaceRoute(access)) operation.parameters = [...(operation.parameters ?? []), ...TENANT_PARAMETERS];
  for (const [status, texts] of Object.entries(impliedErrors(operation))) {
    const own = operation.responses[status]?.description;
    const description = [own, ...texts].filter((text) => text).join('; ');
    operation.responses[status] = { ...operation.responses[status], description };
  }
  const schema = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };
  for (const [status, response] of Object.entries(operation.responses)) {
    if (Number(status) >= 400 && !response.content) response.content = schema;
  }
}

/**
 * The document's OpenAPI 3.1 `webhooks` section (the events the service sends), provided by the
 * feature that owns them (the webhooks module): plumbing does not import features.
 */
export const OPENAPI_WEBHOOKS = Symbol('OPENAPI_WEBHOOKS');
export type OpenApiWebhooks = Record<string, { post: Record<string, unknown> }>;

function webhooksOf(app: INestApplication): OpenApiWebhooks {
  try {
    return app.get<OpenApiWebhooks>(OPENAPI_WEBHOOKS, { strict: false });
  } catch {
    // An app without the webhooks module (a test's partial app) has no section.
    return {};
  }
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('WhatsApp Inbox API')
    .setDescription(
      [
        'Multi-workspace WhatsApp inbox. Integrations authenticate with `Authorization: Bearer pk_live_…`',
        '(exact capitalisation, one space); the Console uses the `svc_session` cookie plus `X-Tenant-ID`.',
        'Request bodies are JSON (`Content-Type: application/json`). Every error body is `{"error": "...", "code"?: "..."}`;',
        'branch on the HTTP status, not the text. Each operation lists every status it answers, except those any',
        'request may get before it reaches a route: 431 `request headers too large` (headers over 16 KB, a very long',
        'path or query included), 400 `malformed HTTP request`, 408 `request timeout`, 413 `payload too large`.',
        'A JSON body nesting deeper than 64 levels, with an object of more than 1,000 fields or more than 10,000',
        'fields in all is 400 before any route reads it. Errors follow the check order: 401, then 403, 402, and',
        '400 for input last, the body included (a malformed or non-JSON body is 400 only for a caller allowed',
        'to call the route); an unknown path is 404 whatever the body.',
        'PATCH changes the fields present (`null` clears a field that may be empty); deleting what does not exist',
        '(or no longer exists) is 404. `null` is accepted only where a schema says `nullable` (elsewhere it is 400, on',
        'create as on PATCH); an empty query value (`?status=`) is a value, refused when its schema excludes it.',
      ].join(' '),
    )
    .setVersion('1')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'pk_live_<48 hex>', description: 'Workspace API key: `pk_live_` followed by 48 hexadecimal characters.' },
      API_KEY_SECURITY,
    )
    .addCookieAuth('svc_session', { type: 'apiKey', in: 'cookie', name: 'svc_session' }, SESSION_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponse] });
  applyValidationRules(app, document);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) if (operation?.responses) completeOperation(operation);
  }
  // 3.1 for the `webhooks` section (the events the service sends); the paths keep 3.0's `nullable`,
  // which a 3.1 reader ignores or honours (the validator and the client generator accept both).
  return { ...document, openapi: '3.1.0', webhooks: webhooksOf(app) } as unknown as OpenAPIObject;
}

/** Serves the document at /api/openapi.json and the explorer at /api/docs. */
export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  // Served by Express, not by a Nest route: the body and query checks answer here, before it.
  app.use(['/api/docs', '/api/openapi.json', '/api/openapi.yaml'], refuseDeferredInput);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
}
