import type { JSX } from 'preact';
import { api } from '../../api/client.js';
import type { Webhook, WebhookDelivery } from '../../api/types.js';
import { Link } from '../../router.js';
import { useAction, useInterval, useLoad } from '../../ui/hooks.js';
import { Badge, Button, Empty, ErrorNote, Loading, Table, Time } from '../../ui/kit.js';

const REFRESH_MS = 5000;

function statusBadge(d: WebhookDelivery): JSX.Element {
  const kind = d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'danger' : 'warning';
  return <Badge kind={kind}>{d.status}</Badge>;
}

/** The last 100 attempts of one endpoint (refreshing by itself), a test event, and redelivery. */
export function WebhookDeliveries({ webhook }: { webhook: Webhook }): JSX.Element {
  const deliveries = useLoad(() => api.get<WebhookDelivery[]>(`/api/webhooks/${webhook.id}/deliveries`), [webhook.id]);
  const test = useAction(async () => {
    await api.post(`/api/webhooks/${webhook.id}/test`);
    await deliveries.reload();
  });
  const retry = useAction(async (deliveryId: string) => {
    await api.post(`/api/webhooks/${webhook.id}/deliveries/${deliveryId}/retry`);
    await deliveries.reload();
  });
  useInterval(() => void deliveries.reload(), REFRESH_MS, true);
  const list = deliveries.data ?? [];
  return (
    <div>
      <p>
        <Link href="/settings/webhooks">← All webhooks</Link>
      </p>
      <div class="page-header">
        <div>
          <h2 class="break">Deliveries to {webhook.url}</h2>
          <p class="muted">
            {webhook.enabled ? <Badge kind="success">enabled</Badge> : <Badge kind="warning">disabled</Badge>}{' '}
            {webhook.events.map((e) => (
              <Badge key={e}>{e}</Badge>
            ))}{' '}
            The last 100 attempts, newest first; the list refreshes by itself.
          </p>
        </div>
        <Button variant="primary" busy={test.busy} onClick={() => void test.run()}>
          Send a test event
        </Button>
      </div>
      <ErrorNote error={test.error ?? retry.error ?? deliveries.error} />
      {deliveries.loading && !deliveries.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title="No deliveries yet.">Send a test event, or wait for the next inbound message.</Empty>
      ) : (
        <Table columns={['Time', 'Event', 'Status', 'Response', 'Error', 'Attempt', 'Duration']} label="Delivery log">
          {list.map((d) => (
            <tr key={d.id} data-delivery={d.delivery_id}>
              <td data-label="Time">
                <Time value={d.created_at} relative />
              </td>
              <td data-label="Event">{d.event}</td>
              <td data-label="Status">{statusBadge(d)}</td>
              <td data-label="Response">{d.response_status ?? '—'}</td>
              <td data-label="Error" class="break">
                {d.error || null}
              </td>
              <td data-label="Attempt">{d.attempt}</td>
              <td data-label="Duration">{d.duration_ms} ms</td>
              <td class="actions">
                {/* Any delivery can be sent again (same webhook-id and bytes), delivered ones too. */}
                <Button
                  variant="link"
                  disabled={retry.busy}
                  onClick={() => void retry.run(d.delivery_id)}
                  aria-label={`Send the ${d.event} delivery of ${new Date(d.created_at).toLocaleTimeString()} again`}
                >
                  Send again
                </Button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
