import { Module } from '@nestjs/common';
import { WorkspaceHooksModule } from '../../tenants/workspaces/workspace-hooks.module.js';
import { WebhookSecretRepository } from './webhook-secret.repository.js';
import { WebhookSecretService } from './webhook-secret.service.js';

/**
 * The signing secrets alone, so the operator CLI (which creates workspaces too) gives every new
 * workspace its secret exactly as the API does, without loading queues or HTTP.
 */
@Module({
  imports: [WorkspaceHooksModule],
  providers: [WebhookSecretRepository, WebhookSecretService],
  exports: [WebhookSecretService],
})
export class WebhookSecretsModule {}
