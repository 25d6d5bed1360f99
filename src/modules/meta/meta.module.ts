import { Module } from '@nestjs/common';
import { ContentModule } from '../content/content.module.js';
import { InboxModule } from '../inbox/inbox.module.js';
import { MediaModule } from '../media/media.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { CallbackRouter } from './callback/callback-router.js';
import { MetaCallbackController } from './callback/meta-callback.controller.js';
import { MetaCallbackMetrics } from './callback/meta-callback.metrics.js';
import { MetaCallbackProcessor } from './callback/meta-callback.processor.js';
import { MetaCallbackRepository } from './callback/meta-callback.repository.js';
import { MetaCallbackService } from './callback/meta-callback.service.js';
import { MetaCallbackSweeper } from './callback/meta-callback.sweeper.js';
import { MetaChatForwarding } from './forwarding/meta-chat-forwarding.js';
import { MetaSessionStatus } from './forwarding/meta-session-status.js';
import { GraphApi } from './graph/graph-api.js';
import { GraphClient } from './graph/graph-client.js';
import { MetaInboundHandler } from './inbound/meta-inbound.handler.js';
import { MetaInboundRepository } from './inbound/meta-inbound.repository.js';
import { MetaMediaProcessor } from './inbound/meta-media.processor.js';
import { MetaChannelGateway } from './sending/meta-channel.gateway.js';
import { MetaSettingsController } from './settings/meta-settings.controller.js';
import { MetaSettingsRepository } from './settings/meta-settings.repository.js';
import { MetaSettingsService } from './settings/meta-settings.service.js';
import { MetaSignupController } from './signup/meta-signup.controller.js';
import { MetaSignupService } from './signup/meta-signup.service.js';
import { MetaTemplateProvider } from './templates/meta-template.provider.js';
import { MetaTemplateUpdates } from './templates/meta-template-updates.js';

/**
 * The cloud channel (docs/contract.md#modules): a workspace's WhatsApp Cloud API number
 * (`settings/`, `signup/`), the provider's callback stored and processed in a queue
 * (`callback/`, `inbound/`), forwarded as `meta.chat` through the webhook outbox
 * (`forwarding/`), the `meta` ChannelGateway (`sending/`) and the content module's template
 * provider (`templates/`), all through the Graph API client (`graph/`).
 */
@Module({
  imports: [InboxModule, MediaModule, WebhooksModule, ContentModule],
  controllers: [MetaSettingsController, MetaSignupController, MetaCallbackController],
  providers: [
    GraphClient,
    GraphApi,
    MetaSettingsRepository,
    MetaSettingsService,
    MetaSignupService,
    MetaCallbackRepository,
    MetaCallbackService,
    MetaCallbackSweeper,
    CallbackRouter,
    MetaCallbackMetrics,
    MetaCallbackProcessor,
    MetaInboundRepository,
    MetaInboundHandler,
    MetaMediaProcessor,
    MetaChannelGateway,
    MetaTemplateProvider,
    MetaTemplateUpdates,
    MetaChatForwarding,
    MetaSessionStatus,
  ],
  exports: [MetaSettingsService],
})
export class MetaModule {}
