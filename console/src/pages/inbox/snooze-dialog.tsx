import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { ApiError } from '../../api/client.js';
import { Button, Dialog, ErrorNote } from '../../ui/kit.js';
import { snoozeText } from './conversation-row.js';

/** The presets, computed when the dialog opens (in the reader's time zone). */
export function snoozePresets(now = new Date()): { label: string; until: Date }[] {
  const inAnHour = new Date(now.getTime() + 60 * 60_000);
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  // Monday of next week, 09:00 (on a Monday: the Monday after).
  const nextWeek = new Date(now);
  nextWeek.setDate(now.getDate() + ((8 - now.getDay()) % 7 || 7));
  nextWeek.setHours(9, 0, 0, 0);
  return [
    { label: 'In 1 hour', until: inAnHour },
    { label: 'Tomorrow at 09:00', until: tomorrow },
    { label: 'Next week', until: nextWeek },
  ];
}

/** A date as `<input type="datetime-local">` shows it: local time, to the minute. */
function localInput(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

interface SnoozeDialogProps {
  onSnooze: (until: Date) => Promise<boolean>;
  onClose: () => void;
  busy: boolean;
  error: ApiError | null;
}

/**
 * Until when to snooze: a preset (one press) or a date and time of your own. The conversation
 * opens again by itself then, or earlier when the contact writes.
 */
export function SnoozeDialog({ onSnooze, onClose, busy, error }: SnoozeDialogProps): JSX.Element {
  const [presets] = useState(() => snoozePresets());
  const [custom, setCustom] = useState(() => localInput(presets[1]!.until));
  const [invalid, setInvalid] = useState('');
  const pick = async (until: Date): Promise<void> => {
    if (await onSnooze(until)) onClose();
  };
  return (
    <Dialog title="Snooze until" onClose={onClose}>
      <ul class="snooze-presets" aria-label="Snooze presets">
        {presets.map((p) => (
          <li key={p.label}>
            <Button class="snooze-preset" disabled={busy} onClick={() => void pick(p.until)}>
              <span>{p.label}</span>
              <span class="muted">{snoozeText(p.until.toISOString())}</span>
            </Button>
          </li>
        ))}
      </ul>
      <form
        class="snooze-custom"
        onSubmit={(event) => {
          event.preventDefault();
          const until = new Date(custom);
          if (Number.isNaN(until.getTime()) || until.getTime() <= Date.now()) {
            setInvalid('Choose a date and time in the future.');
            return;
          }
          setInvalid('');
          void pick(until);
        }}
      >
        <div class="field">
          <label for="snooze-custom-at">Or a date and time</label>
          <input
            id="snooze-custom-at"
            type="datetime-local"
            required
            min={localInput(new Date())}
            value={custom}
            onInput={(e) => setCustom(e.currentTarget.value)}
          />
        </div>
        <ErrorNote error={error}>{invalid || undefined}</ErrorNote>
        <div class="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Snooze
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
