import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';

export const API_KEY_SECURITY = 'apiKey';
export const SESSION_SECURITY = 'session';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('WhatsApp Inbox API')
    .setDescription(
      [
        'Multi-workspace WhatsApp inbox. Integrations authenticate with `Authorization: Bearer pk_live_…`',
        '(exact capitalisation, one space); the Console uses the `svc_session` cookie plus `X-Tenant-ID`.',
        'Every error body is `{"error": "...", "code"?: "..."}`. Branch on the HTTP status, not the text.',
      ].join(' '),
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Workspace API key (pk_live_…)' }, API_KEY_SECURITY)
    .addCookieAuth('svc_session', { type: 'apiKey', in: 'cookie', name: 'svc_session' }, SESSION_SECURITY)
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at /api/openapi.json and the explorer at /api/docs. */
export function setupOpenApi(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
}
