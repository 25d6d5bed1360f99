import type { MigrationInterface } from 'typeorm';
import { Init1764000000000 } from './1764000000000-Init.js';
import { Accounts1764000100000 } from './1764000100000-Accounts.js';
import { Inbox1764000300000 } from './1764000300000-Inbox.js';
import { PendingInviteUnique1764000400000 } from './1764000400000-PendingInviteUnique.js';
import { ScanAuthState1764000620000 } from './1764000620000-ScanAuthState.js';
import { ScanInbound1764000700000 } from './1764000700000-ScanInbound.js';
import { ScanSessions1764000800000 } from './1764000800000-ScanSessions.js';
import { Webhooks1764001000000 } from './1764001000000-Webhooks.js';
import { WebhookSecrets1764001000001 } from './1764001000001-WebhookSecrets.js';
import { WebhookDeliveryIndexes1764001000002 } from './1764001000002-WebhookDeliveryIndexes.js';
import { WebhookAttemptsForeignKey1764001000003 } from './1764001000003-WebhookAttemptsForeignKey.js';
import { MetaChannel1764002000000 } from './1764002000000-MetaChannel.js';
import { Templates1764003000000 } from './1764003000000-Templates.js';
import { Knowledge1764003100000 } from './1764003100000-Knowledge.js';
import { Automations1764003200000 } from './1764003200000-Automations.js';
import { GooglePendingSignups1764004000000 } from './1764004000000-GooglePendingSignups.js';
import { InsertionOrder1764007000000 } from './1764007000000-InsertionOrder.js';
import { WebhookDeliveryClaims1764008000000 } from './1764008000000-WebhookDeliveryClaims.js';
import { WebhookDeliveryFillfactor1764009000000 } from './1764009000000-WebhookDeliveryFillfactor.js';
import { ConversationPartialIndexes1764009100000 } from './1764009100000-ConversationPartialIndexes.js';
import { ConversationListHour1764010100000 } from './1764010100000-ConversationListHour.js';
import { WebhookEventsCreatedBrin1764010200000 } from './1764010200000-WebhookEventsCreatedBrin.js';
import { WebhookDeliveriesEventCascadeTrigger1764010300000 } from './1764010300000-WebhookDeliveriesEventCascadeTrigger.js';
import { WebhookEventsWorkspaceCascadeTrigger1764010400000 } from './1764010400000-WebhookEventsWorkspaceCascadeTrigger.js';
import { WebhookEventsBrinVacuumSummarized1764010500000 } from './1764010500000-WebhookEventsBrinVacuumSummarized.js';
import { WebhookDeliveriesDropDueIndex1764010600000 } from './1764010600000-WebhookDeliveriesDropDueIndex.js';
import { WebhookDeliveriesWebhookCascadeTrigger1764010700000 } from './1764010700000-WebhookDeliveriesWebhookCascadeTrigger.js';
import { WebhookEventsOptionalSourceKey1764010800000 } from './1764010800000-WebhookEventsOptionalSourceKey.js';
import { TimeOrderedOutboxIds1764011000000 } from './1764011000000-TimeOrderedOutboxIds.js';
import { WebhookSealedUrls1764011100000 } from './1764011100000-WebhookSealedUrls.js';
import { MessageKinds1764011200000 } from './1764011200000-MessageKinds.js';
import { ScanProxies1764011300000 } from './1764011300000-ScanProxies.js';
import { ScanSessionStates1764011400000 } from './1764011400000-ScanSessionStates.js';
import { WebhookFilters1764011500000 } from './1764011500000-WebhookFilters.js';
import { ConversationSeq1764011600000 } from './1764011600000-ConversationSeq.js';
import { ConversationStatuses1764011700000 } from './1764011700000-ConversationStatuses.js';
import { NotesLabelsQuickReplies1764011710000 } from './1764011710000-NotesLabelsQuickReplies.js';
import { MessageSearch1764011720000 } from './1764011720000-MessageSearch.js';
import { ConversationReports1764011730000 } from './1764011730000-ConversationReports.js';
import { NumberChecks1764011740000 } from './1764011740000-NumberChecks.js';
import { OutboundQueue1764011750000 } from './1764011750000-OutboundQueue.js';

// Every migration in order. A new migration file must be added to this list.
export const MIGRATIONS: (new () => MigrationInterface)[] = [
  Init1764000000000,
  Accounts1764000100000,
  Inbox1764000300000,
  PendingInviteUnique1764000400000,
  ScanAuthState1764000620000,
  ScanInbound1764000700000,
  ScanSessions1764000800000,
  Webhooks1764001000000,
  WebhookSecrets1764001000001,
  WebhookDeliveryIndexes1764001000002,
  WebhookAttemptsForeignKey1764001000003,
  MetaChannel1764002000000,
  Templates1764003000000,
  Knowledge1764003100000,
  Automations1764003200000,
  GooglePendingSignups1764004000000,
  InsertionOrder1764007000000,
  WebhookDeliveryClaims1764008000000,
  WebhookDeliveryFillfactor1764009000000,
  ConversationPartialIndexes1764009100000,
  ConversationListHour1764010100000,
  WebhookEventsCreatedBrin1764010200000,
  WebhookDeliveriesEventCascadeTrigger1764010300000,
  WebhookEventsWorkspaceCascadeTrigger1764010400000,
  WebhookEventsBrinVacuumSummarized1764010500000,
  WebhookDeliveriesDropDueIndex1764010600000,
  WebhookDeliveriesWebhookCascadeTrigger1764010700000,
  WebhookEventsOptionalSourceKey1764010800000,
  TimeOrderedOutboxIds1764011000000,
  WebhookSealedUrls1764011100000,
  MessageKinds1764011200000,
  ScanProxies1764011300000,
  ScanSessionStates1764011400000,
  WebhookFilters1764011500000,
  ConversationSeq1764011600000,
  ConversationStatuses1764011700000,
  NotesLabelsQuickReplies1764011710000,
  MessageSearch1764011720000,
  ConversationReports1764011730000,
  NumberChecks1764011740000,
  OutboundQueue1764011750000,
];
