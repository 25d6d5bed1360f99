import type { INestApplication } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

export const API_KEY_SECURITY = 'apiKey';
export const SESSION_SECURITY = 'session';

/** The body of every error (interface.md section 2). */
export class ErrorResponse {
  @ApiProperty({ example: 'conversation not found', description: 'Human-readable; branch on the HTTP status, not on this text.' })
  error: string;

  @ApiPropertyOptional({ example: 'not_found', description: '`payment_required` (402) or `not_found` (unknown path)' })
  code?: string;
}

interface Operation {
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
  'x-access'?: string;
  'x-subscription-exempt'?: boolean;
}

// What any workspace route may answer besides its own errors (api.md, "Check order").
const WORKSPACE_ERRORS: Record<string, string> = {
  '401': '`unauthorized` (no credentials) or `invalid or expired API key`',
  '403': 'not allowed for this key or user: `API key is read-only`, `API keys cannot administer workspaces`, `API key belongs to a different workspace`, `admin required`, `forbidden`',
};
const SUBSCRIPTION_ERROR = { '402': '`subscription required` with `code: "payment_required"` (only when subscriptions are enforced)' };
const INPUT_ERROR = { '400': 'invalid input: a readable message naming the problem' };
const USER_ERRORS = { '401': '`unauthorized`: no valid session' };

/**
 * Completes what decorators leave out, uniformly: every error response gets the error schema, and
 * every operation lists the errors its access rule and input imply, so integrators see the same
 * statuses the guard chain sends.
 */
function documentErrors(document: OpenAPIObject): void {
  const schema = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!operation?.responses) continue;
      const access = operation['x-access'] ?? 'member'; // routes without a decorator are member routes
      const implied: Record<string, string> = {
        ...(operation.requestBody || operation.parameters?.length ? INPUT_ERROR : {}),
        ...(access === 'user' ? USER_ERRORS : {}),
        ...(access === 'member' || access === 'session' || access === 'console' ? WORKSPACE_ERRORS : {}),
        ...(access !== 'public' && access !== 'user' && !operation['x-subscription-exempt'] ? SUBSCRIPTION_ERROR : {}),
      };
      for (const [status, description] of Object.entries(implied)) operation.responses[status] ??= { description };
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400 && !response.content) response.content = schema;
      }
    }
  }
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('WhatsApp Inbox API')
    .setDescription(
      [
        'Multi-workspace WhatsApp inbox. Integrations authenticate with `Authorization: Bearer pk_live_…`',
        '(exact capitalisation, one space); the Console uses the `svc_session` cookie plus `X-Tenant-ID`.',
        'Every error body is `{"error": "...", "code"?: "..."}`. Branch on the HTTP status, not the text.',
        'Any route may also answer 500 (retry with backoff) or 503 while a dependency is down.',
      ].join(' '),
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Workspace API key (pk_live_…)' }, API_KEY_SECURITY)
    .addCookieAuth('svc_session', { type: 'apiKey', in: 'cookie', name: 'svc_session' }, SESSION_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorResponse] });
  documentErrors(document);
  return document;
}

/** Serves the document at /api/openapi.json and the explorer at /api/docs. */
export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
}
