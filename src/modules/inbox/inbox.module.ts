import { Module } from '@nestjs/common';
import { ClockModule } from '../auth/clock/clock.module.js';
import { ChannelsModule } from '../channels/channels.module.js';
import { TenantsModule } from '../tenants/tenants.module.js';
import { InboxChangeHooks } from './changes/inbox-change-hooks.js';
import { ContactRepository } from './contacts/contact.repository.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ContactsService } from './contacts/contacts.service.js';
import { ConversationListRepository } from './conversations/conversation-list.repository.js';
import { ConversationListService } from './conversations/conversation-list.service.js';
import { ConversationRepository } from './conversations/conversation.repository.js';
import { ConversationStatusService } from './conversations/conversation-status.service.js';
import { ConversationsController } from './conversations/conversations.controller.js';
import { ConversationsService } from './conversations/conversations.service.js';
import { MemberRemovalService } from './conversations/member-removal.service.js';
import { SnoozeWakeSweeper } from './conversations/snooze-wake.sweeper.js';
import { SnoozedConversationsRepository } from './conversations/snoozed-conversations.repository.js';
import { StartConversationService } from './conversations/start-conversation.service.js';
import { InboxEvents } from './inbox-events.service.js';
import { BatchIngestRepository } from './ingest/batch-ingest.repository.js';
import { ChannelUpdatesService } from './ingest/channel-updates.service.js';
import { ContactMergeRepository } from './ingest/contact-merge.repository.js';
import { ContactMergeService } from './ingest/contact-merge.service.js';
import { InboxIngestService } from './ingest/inbox-ingest.service.js';
import { IngestHooks } from './ingest/ingest-hooks.js';
import { IngestMetrics } from './ingest/ingest.metrics.js';
import { IngestRepository } from './ingest/ingest.repository.js';
import { LabelRepository } from './labels/label.repository.js';
import { LabellingController } from './labels/labelling.controller.js';
import { LabelsController } from './labels/labels.controller.js';
import { LabelsService } from './labels/labels.service.js';
import { MessageActionsService } from './messages/message-actions.service.js';
import { MessageStatusService } from './messages/message-status.service.js';
import { MessageUpdatesMetrics } from './messages/message-updates.metrics.js';
import { MessageUpdatesRepository } from './messages/message-updates.repository.js';
import { MessageUpdatesService } from './messages/message-updates.service.js';
import { PendingMessageUpdatesRepository } from './messages/pending-message-updates.repository.js';
import { DEFAULT_PENDING_UPDATES_OPTIONS, PENDING_UPDATES_OPTIONS } from './messages/pending-updates.options.js';
import { PendingUpdatesSweeper } from './messages/pending-updates.sweeper.js';
import { MessageTemplates } from './messages/message-templates.js';
import { MessageRepository } from './messages/message.repository.js';
import { MessagesController } from './messages/messages.controller.js';
import { MessagesService } from './messages/messages.service.js';
import { SendMessageService } from './messages/send-message.service.js';
import { SendOutcomeService } from './messages/send-outcome.service.js';
import { NoteRepository } from './notes/note.repository.js';
import { OutboundLanePump } from './outbound/outbound-lane.pump.js';
import { OutboundLaneProcessor } from './outbound/outbound-lane.processor.js';
import { OutboundLaneStore } from './outbound/outbound-lane.store.js';
import { OutboundLaneSweeper } from './outbound/outbound-lane.sweeper.js';
import { OutboundMetrics } from './outbound/outbound.metrics.js';
import { OutboundQueueRepository } from './outbound/outbound-queue.repository.js';
import { OutboundQueueService } from './outbound/outbound-queue.service.js';
import { SendCapsRepository } from './outbound/send-caps.repository.js';
import { SendCapsService } from './outbound/send-caps.service.js';
import { SendSettingsRepository } from './outbound/send-settings.repository.js';
import { SendSettingsService } from './outbound/send-settings.service.js';
import { SendingController } from './outbound/sending.controller.js';
import { ConversationTypingService } from './conversations/conversation-typing.service.js';
import { NotesController } from './notes/notes.controller.js';
import { NotesService } from './notes/notes.service.js';
import { InboxStatsController } from './stats/inbox-stats.controller.js';
import { InboxStatsRepository } from './stats/inbox-stats.repository.js';
import { InboxStatsService } from './stats/inbox-stats.service.js';
import { SearchController } from './search/search.controller.js';
import { SearchRepository } from './search/search.repository.js';
import { SearchService } from './search/search.service.js';

/**
 * Contacts, conversations, messages, the ingest pipeline and sending through a channel port.
 * Channels import this module for `InboxIngestService`, `MessageStatusService`,
 * `MessageUpdatesService` (reactions, edits, revokes) and `ChannelUpdatesService` (they write no
 * inbox table themselves); the outbox
 * and the automations (content module) register with `IngestHooks` (new messages, group commit)
 * or `InboxChangeHooks` (any inbox change, in its transaction). It registers with tenants'
 * `MemberHooks` (tenants cannot import it back) to unassign a removed member's conversations.
 */
@Module({
  // ChannelsModule is global: importing it here makes its registry available app-wide without
  // touching AppModule, and channels register their gateway with it.
  imports: [ChannelsModule, TenantsModule, ClockModule],
  controllers: [
    ConversationsController,
    MessagesController,
    ContactsController,
    InboxStatsController,
    SearchController,
    NotesController,
    LabelsController,
    LabellingController,
    SendingController,
  ],
  providers: [
    InboxEvents,
    IngestRepository,
    BatchIngestRepository,
    ContactMergeRepository,
    ContactMergeService,
    IngestHooks,
    InboxChangeHooks,
    IngestMetrics,
    InboxIngestService,
    ChannelUpdatesService,
    ConversationRepository,
    ConversationsService,
    ConversationListRepository,
    ConversationListService,
    ConversationStatusService,
    SnoozedConversationsRepository,
    SnoozeWakeSweeper,
    StartConversationService,
    MemberRemovalService,
    MessageRepository,
    MessagesService,
    SendMessageService,
    MessageActionsService,
    MessageTemplates,
    MessageStatusService,
    MessageUpdatesRepository,
    PendingMessageUpdatesRepository,
    MessageUpdatesService,
    MessageUpdatesMetrics,
    PendingUpdatesSweeper,
    // Tests override it with a short wait.
    { provide: PENDING_UPDATES_OPTIONS, useValue: DEFAULT_PENDING_UPDATES_OPTIONS },
    ContactRepository,
    ContactsService,
    InboxStatsRepository,
    InboxStatsService,
    SearchRepository,
    SearchService,
    NoteRepository,
    NotesService,
    LabelRepository,
    LabelsService,
    // The paced outbound queue and the caps (docs/sending.md).
    SendOutcomeService,
    OutboundQueueRepository,
    OutboundQueueService,
    OutboundLaneStore,
    OutboundLanePump,
    OutboundLaneProcessor,
    OutboundLaneSweeper,
    OutboundMetrics,
    SendCapsRepository,
    SendCapsService,
    SendSettingsRepository,
    SendSettingsService,
    ConversationTypingService,
  ],
  // The content module (templates, automations) sends, assigns and marks read through the same
  // services as the API, and plugs its template renderer into MessageTemplates.
  exports: [
    InboxIngestService,
    ChannelUpdatesService,
    IngestHooks,
    InboxChangeHooks,
    MessageStatusService,
    MessageUpdatesService,
    ContactMergeService,
    InboxEvents,
    MessageTemplates,
    SendMessageService,
    ConversationsService,
    ConversationRepository,
    // The automations' `set_status` action.
    ConversationStatusService,
    // The automations' `add_label` action.
    LabelsService,
    // The chat status' `limits`.
    SendSettingsService,
  ],
})
export class InboxModule {}
