import type { JSX } from 'preact';
import { Link, Redirect } from '../../router.js';
import { useSession } from '../../session.js';
import { Empty, PageHeader } from '../../ui/kit.js';
import { ApiKeysTab } from './api-keys.js';
import { CloudTab } from './cloud.js';
import { LabelsTab } from './labels.js';
import { MembersTab } from './members.js';
import { QuickRepliesTab } from './quick-replies.js';
import { SendingTab } from './sending.js';
import { WebhooksTab } from './webhooks.js';
import { WorkspaceTab } from './workspace.js';

const TABS: { id: string; label: string; adminOnly: boolean }[] = [
  { id: 'members', label: 'Members', adminOnly: false },
  // Everyone sees these two (they use them); owners and admins change them.
  { id: 'labels', label: 'Labels', adminOnly: false },
  { id: 'quick-replies', label: 'Quick replies', adminOnly: false },
  // Everyone sees the number's pace and caps; owners and admins change them.
  { id: 'sending', label: 'Sending', adminOnly: false },
  { id: 'keys', label: 'API keys', adminOnly: true },
  { id: 'webhooks', label: 'Webhooks', adminOnly: true },
  { id: 'cloud', label: 'Cloud API', adminOnly: true },
  { id: 'workspace', label: 'Workspace', adminOnly: false },
];

/** Workspace administration, one tab per concern (`/settings/<tab>`, deep links included). */
export function SettingsPage({ params }: { params: Record<string, string> }): JSX.Element {
  const { isAdmin } = useSession();
  if (!params.tab) return <Redirect to="/settings/members" />;
  const tabs = TABS.filter((t) => isAdmin || !t.adminOnly);
  const tab = tabs.find((t) => t.id === params.tab);
  return (
    <section>
      <PageHeader title="Settings" />
      <nav class="tabs" aria-label="Settings">
        {tabs.map((t) => (
          <Link key={t.id} href={`/settings/${t.id}`} aria-current={t.id === params.tab ? 'page' : undefined}>
            {t.label}
          </Link>
        ))}
      </nav>
      {!tab ? (
        <Empty title={TABS.some((t) => t.id === params.tab) ? 'Only owners and admins can open this page.' : 'This page does not exist.'} />
      ) : tab.id === 'members' ? (
        <MembersTab />
      ) : tab.id === 'labels' ? (
        <LabelsTab />
      ) : tab.id === 'quick-replies' ? (
        <QuickRepliesTab />
      ) : tab.id === 'sending' ? (
        <SendingTab />
      ) : tab.id === 'keys' ? (
        <ApiKeysTab />
      ) : tab.id === 'webhooks' ? (
        <WebhooksTab webhookId={params.id} />
      ) : tab.id === 'cloud' ? (
        <CloudTab />
      ) : (
        <WorkspaceTab />
      )}
    </section>
  );
}
