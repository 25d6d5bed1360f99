import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module.js';
import { TemplateRepository } from './templates/template.repository.js';
import { TemplateProvidersModule } from './templates/template-providers.module.js';
import { TemplatesController } from './templates/templates.controller.js';
import { TemplatesService } from './templates/templates.service.js';

/**
 * What a workspace manages to answer its chats: templates (local, or mirrored from the Cloud API
 * provider), automations run on new messages, and knowledge articles. It imports the inbox and
 * plugs into it (template sends, ingest hooks). The Cloud API module registers its
 * `TemplateProvider` with the global `TemplateProviders` and imports this module to report
 * template status changes (`TemplatesService.applyProviderUpdate`).
 */
@Module({
  imports: [InboxModule, TemplateProvidersModule],
  controllers: [TemplatesController],
  providers: [TemplateRepository, TemplatesService],
  exports: [TemplatesService],
})
export class ContentModule {}
