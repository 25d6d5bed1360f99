import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module.js';
import { TenantsModule } from '../tenants/tenants.module.js';
import { AutomatedWorkspaces } from './automations/automated-workspaces.js';
import { AutomationRepository } from './automations/automation.repository.js';
import { AutomationActions } from './automations/automation-actions.js';
import { AutomationEngine } from './automations/automation-engine.js';
import { AutomationIngestHook } from './automations/automation-ingest.hook.js';
import { AutomationQueue } from './automations/automation-queue.js';
import { AutomationTriggerRepository } from './automations/automation-trigger.repository.js';
import { AutomationsController } from './automations/automations.controller.js';
import { AutomationsProcessor } from './automations/automations.processor.js';
import { AutomationsService } from './automations/automations.service.js';
import { ConditionEvaluator } from './automations/condition-evaluator.js';
import { RegexSandbox } from './automations/regex-sandbox.js';
import { ReplyGuard } from './automations/reply-guard.js';
import { KnowledgeController } from './knowledge/knowledge.controller.js';
import { KnowledgeRepository } from './knowledge/knowledge.repository.js';
import { KnowledgeService } from './knowledge/knowledge.service.js';
import { QuickRepliesController } from './quick-replies/quick-replies.controller.js';
import { QuickRepliesService } from './quick-replies/quick-replies.service.js';
import { QuickReplyRepository } from './quick-replies/quick-reply.repository.js';
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
  imports: [InboxModule, TenantsModule, TemplateProvidersModule],
  controllers: [TemplatesController, AutomationsController, KnowledgeController, QuickRepliesController],
  providers: [
    TemplateRepository,
    TemplatesService,
    KnowledgeRepository,
    KnowledgeService,
    QuickReplyRepository,
    QuickRepliesService,
    AutomationRepository,
    AutomationTriggerRepository,
    AutomationsService,
    AutomationQueue,
    AutomatedWorkspaces,
    AutomationIngestHook,
    RegexSandbox,
    ConditionEvaluator,
    ReplyGuard,
    AutomationActions,
    AutomationEngine,
    AutomationsProcessor,
  ],
  exports: [TemplatesService],
})
export class ContentModule {}
