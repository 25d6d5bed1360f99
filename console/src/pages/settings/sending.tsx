import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { SendLimits, SendSettingsValues, TypingMode } from '../../api/types.js';
import { useSession } from '../../session.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Button, ErrorNote, Field, Loading, Notice, Select, Time } from '../../ui/kit.js';

type NumericField = Exclude<keyof SendSettingsValues, 'typing'>;

// The bounds the service keeps a workspace to (PATCH /api/chat/limits answers 400 outside them).
const FIELDS: { key: NumericField; label: string; min: number; max: number; hint: string }[] = [
  { key: 'min_gap_ms', label: 'Least gap between sends (ms)', min: 200, max: 600000, hint: 'two messages never go out closer than this' },
  { key: 'jitter_ms', label: 'Random extra per gap (ms)', min: 0, max: 600000, hint: 'a person never types at a fixed beat' },
  { key: 'per_minute', label: 'Sends per minute', min: 1, max: 300, hint: 'the steady pace once the burst is used' },
  { key: 'burst', label: 'Burst', min: 1, max: 50, hint: 'sends at the least gap before the per-minute pace holds' },
  { key: 'first_contacts_per_day', label: 'New chats per day', min: 1, max: 1000, hint: 'chats this number starts with people who never wrote to it' },
  { key: 'unanswered_per_chat', label: 'Unanswered messages per chat', min: 1, max: 100, hint: 'messages to one chat in 24 hours without a reply' },
];

const TYPING: [TypingMode, string][] = [
  ['automations', 'Before automated replies'],
  ['all', 'Before every queued message'],
  ['off', 'Never'],
];

/** Settings → Sending: the pace and caps that keep a number linked by QR code from looking like a machine. */
export function SendingTab(): JSX.Element {
  const { isAdmin } = useSession();
  const limits = useLoad(() => api.get<SendLimits>('/api/chat/limits'), []);
  const [form, setForm] = useState<SendSettingsValues | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (limits.data) setForm(valuesOf(limits.data));
  }, [limits.data]);
  const save = useAction(async () => {
    if (!form || !limits.data) return;
    const current = valuesOf(limits.data);
    const changed = Object.fromEntries(Object.entries(form).filter(([key, value]) => current[key as keyof SendSettingsValues] !== value));
    limits.set(await api.patch<SendLimits>('/api/chat/limits', changed));
    setSaved(true);
  });
  if (!form || !limits.data) return limits.error ? <ErrorNote error={limits.error} /> : <Loading />;
  const usage = limits.data.usage;
  return (
    <div class="card narrow">
      <h2>Sending</h2>
      <p class="muted">
        WhatsApp restricts numbers linked by QR code that send like a machine: bursts, many chats started with strangers, messages nobody answers. Every message
        of this number waits in its queue and goes out at this pace; the caps refuse sends past them. The Cloud API keeps the provider's own limits.
      </p>
      <dl class="facts" data-sending-usage>
        <dt>New chats, last 24 hours</dt>
        <dd>
          {usage.first_contacts.used} of {usage.first_contacts.cap}
          {usage.first_contacts.resets_at ? (
            <>
              {' '}
              (a place frees <Time value={usage.first_contacts.resets_at} relative />)
            </>
          ) : null}
        </dd>
        <dt>Chats at the unanswered cap</dt>
        <dd>{usage.unanswered.chats_at_cap}</dd>
        <dt>Waiting to be sent</dt>
        <dd>{usage.queue.depth}</dd>
      </dl>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSaved(false);
          void save.run();
        }}
      >
        {FIELDS.map((field) => (
          <Field
            key={field.key}
            label={field.label}
            type="number"
            // No min/max: the service's defaults may lie outside a workspace's bounds, and an unchanged
            // field is not sent; the service checks what changed (and says which bound it broke).
            step={1}
            required
            disabled={!isAdmin}
            hint={`${field.hint} (${field.min}–${field.max}; default ${limits.data!.defaults[field.key]})`}
            value={String(form[field.key])}
            onInput={(e) => setForm({ ...form, [field.key]: Number(e.currentTarget.value) })}
          />
        ))}
        <Select
          label='Show "typing…" first'
          options={TYPING}
          disabled={!isAdmin}
          value={form.typing}
          onChange={(e) => setForm({ ...form, typing: e.currentTarget.value as TypingMode })}
        />
        {isAdmin ? (
          <Button type="submit" variant="primary" busy={save.busy}>
            Save
          </Button>
        ) : (
          <p class="muted">Owners and admins change these.</p>
        )}
      </form>
      <ErrorNote error={save.error} />
      {saved ? <Notice kind="success">Saved: the next sends keep to it.</Notice> : null}
    </div>
  );
}

function valuesOf(limits: SendLimits): SendSettingsValues {
  const { min_gap_ms, jitter_ms, per_minute, burst, typing, first_contacts_per_day, unanswered_per_chat } = limits;
  return { min_gap_ms, jitter_ms, per_minute, burst, typing, first_contacts_per_day, unanswered_per_chat };
}
