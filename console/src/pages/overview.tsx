import type { JSX } from 'preact';
import { api, type ApiError } from '../api/client.js';
import type { ChatStatus, InboxStats, MetaSettings, SendUsage, Webhook, WebhookStats } from '../api/types.js';
import { useLiveEvent } from '../live.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { BarChart } from '../ui/bar-chart.js';
import { chatReason } from '../ui/chat-state.js';
import { useLoad } from '../ui/hooks.js';
import { Badge, durationText, Empty, ErrorNote, Loading, PageHeader, phoneOfJid, Time } from '../ui/kit.js';

const DAYS = 14;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** What a person wants to see first: is the number up, how busy is the inbox, do webhooks arrive. */
export function OverviewPage(): JSX.Element {
  const { workspace, isAdmin } = useSession();
  const stats = useLoad(() => api.get<InboxStats>(`/api/inbox/stats?days=${DAYS}&tz=${encodeURIComponent(browserTimeZone())}`), []);
  const chat = useLoad(() => api.get<ChatStatus>('/api/chat/status'), []);
  // Webhooks and the Cloud API number are administration: agents see neither.
  const hooks = useLoad(() => (isAdmin ? api.get<WebhookStats>('/api/webhooks/stats') : Promise.resolve(null)), [isAdmin]);
  const webhooks = useLoad(() => (isAdmin ? api.get<Webhook[]>('/api/webhooks') : Promise.resolve(null)), [isAdmin]);
  const meta = useLoad(() => (isAdmin ? api.get<MetaSettings>('/api/meta/settings') : Promise.resolve(null)), [isAdmin]);

  useLiveEvent('session.updated', () => void chat.reload());
  useLiveEvent('conversation.updated', () => void stats.reload());

  return (
    <section>
      <PageHeader title={workspace ? `Overview · ${workspace.name}` : 'Overview'} />
      <div class="tiles">
        <NumberTile chat={chat.data} loading={chat.loading} meta={meta.data} />
        {chat.data?.logged_in && chat.data.limits ? <SendingTile limits={chat.data.limits} /> : null}
        <div class="tile">
          <h2>Open conversations</h2>
          <p class="tile-value">{stats.data ? stats.data.open : '…'}</p>
          <Link href="/inbox">Go to the inbox</Link>
        </div>
        <div class="tile">
          <h2>Unassigned</h2>
          <p class="tile-value">{stats.data ? stats.data.unassigned : '…'}</p>
          <p class="muted">open and waiting for someone</p>
        </div>
        {isAdmin ? (
          <WebhookTile
            stats={hooks.data}
            none={webhooks.data?.length === 0}
            loading={hooks.loading || webhooks.loading}
            failed={hooks.error ?? webhooks.error}
          />
        ) : null}
      </div>
      <div class="card">
        <h2>Messages per day (last {DAYS} days)</h2>
        <ErrorNote error={stats.error} />
        {stats.data ? (
          stats.data.days.some((d) => d.inbound || d.outbound) ? (
            <BarChart days={stats.data.days} />
          ) : (
            <NoMessages linked={Boolean(chat.data?.logged_in) || Boolean(meta.data?.phone_number_id)} isAdmin={isAdmin} />
          )
        ) : stats.loading ? (
          <Loading />
        ) : null}
      </div>
    </section>
  );
}

function NumberTile({ chat, loading, meta }: { chat?: ChatStatus; loading: boolean; meta?: MetaSettings | null }): JSX.Element {
  if (!chat) {
    return (
      <div class="tile">
        <h2>WhatsApp number</h2>
        <p class="tile-value">{loading ? '…' : '—'}</p>
      </div>
    );
  }
  const health = chat.connected ? (
    <Badge kind="success">Connected</Badge>
  ) : chat.error ? (
    // Not linked with a reason: unlinked from the phone, or the link could not start.
    <Badge kind="danger">{chat.logged_in ? 'Stopped' : 'Not linked'}</Badge>
  ) : chat.logged_in ? (
    <Badge kind="warning">Reconnecting</Badge>
  ) : chat.qr_pending ? (
    <Badge kind="warning">Waiting for the QR scan</Badge>
  ) : (
    <Badge>Not linked</Badge>
  );
  return (
    <div class="tile">
      <h2>WhatsApp number</h2>
      <p class="tile-value tile-number">{chat.logged_in ? phoneOfJid(chat.jid) : 'None linked'}</p>
      <p>{health}</p>
      {chat.error ? (
        <p class="muted" data-chat-reason>
          {chatReason(chat.error, chat.logged_in ? 'Reconnect' : 'Show the QR code').reason}
        </p>
      ) : null}
      {meta?.phone_number_id ? (
        <p class="muted">
          Cloud API: {meta.display_phone_number || meta.phone_number_id}
          {meta.connected ? null : (
            <>
              {' '}
              <Badge kind="danger">disconnected</Badge>
            </>
          )}
        </p>
      ) : null}
      <Link href="/connect">{chat.logged_in ? 'Connection details' : 'Link a number'}</Link>
    </div>
  );
}

/** The number's caps and queue: how close it is to sending like a machine. */
function SendingTile({ limits }: { limits: SendUsage }): JSX.Element {
  const { first_contacts: first, unanswered, queue } = limits;
  const full = first.used >= first.cap;
  return (
    <div class="tile" data-sending>
      <h2>Sending</h2>
      <p class="tile-value">
        {first.used} / {first.cap}
      </p>
      <p class="muted">
        new chats in the last 24 hours
        {full ? (
          <>
            {' '}
            · <Badge kind="warning">cap reached</Badge>
          </>
        ) : null}
        {first.resets_at ? (
          <>
            {' '}
            · a place frees <Time value={first.resets_at} relative />
          </>
        ) : null}
      </p>
      <p class="muted">
        {unanswered.chats_at_cap} chats at the unanswered cap ({unanswered.cap}) · {queue.depth} waiting to be sent
        {queue.oldest_queued_at ? (
          <>
            , the oldest since <Time value={queue.oldest_queued_at} relative />
          </>
        ) : null}
      </p>
      <Link href="/settings/sending">Pace and caps</Link>
    </div>
  );
}

/** The chart's place on a workspace without messages in the window (a new one, or a quiet one). */
function NoMessages({ linked, isAdmin }: { linked: boolean; isAdmin: boolean }): JSX.Element {
  return (
    <Empty title={`No messages in the last ${DAYS} days`}>
      <p>
        Each day's messages will appear here as a bar, received and sent, as soon as conversations start.
        {linked ? null : isAdmin ? (
          <>
            {' '}
            First <Link href="/connect">link a number</Link>.
          </>
        ) : (
          ' First an owner or admin links a number.'
        )}
      </p>
    </Empty>
  );
}

interface WebhookTileProps {
  stats?: WebhookStats | null;
  /** The workspace has no webhook at all. */
  none: boolean;
  loading: boolean;
  failed: ApiError | null;
}

function WebhookTile({ stats, none, loading, failed }: WebhookTileProps): JSX.Element {
  // The service leaves test deliveries ("Send a test event") out of these counts; so does the rate.
  const finished = stats ? stats.delivered + stats.failed : 0;
  return (
    <div class="tile">
      <h2>Webhook deliveries</h2>
      {failed ? (
        <ErrorNote error={failed} />
      ) : none ? (
        <p data-no-webhook>
          No webhook yet — add one in <Link href="/settings/webhooks">Settings → Webhooks</Link>.
        </p>
      ) : !stats ? (
        <p class="tile-value">{loading ? '…' : '—'}</p>
      ) : (
        <>
          <p class="tile-value">{finished ? `${Math.round((stats.delivered / finished) * 100)}%` : '—'}</p>
          <p class="muted">
            {finished
              ? `delivered (${stats.delivered} of ${finished} in the last ${stats.window_hours} h)`
              : `nothing delivered in the last ${stats.window_hours} h`}
            ; {stats.pending} pending
            {stats.pending > 0 ? `, the oldest for ${durationText(stats.oldest_pending_age_seconds)}` : ''}
          </p>
          {stats.pending > 0 && stats.oldest_pending_age_seconds >= 300 ? (
            <p>
              <Badge kind="warning">An endpoint is behind</Badge>
            </p>
          ) : null}
          <Link href="/settings/webhooks">Webhooks</Link>
        </>
      )}
    </div>
  );
}
