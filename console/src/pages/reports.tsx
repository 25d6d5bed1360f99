import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { ConversationReport, ReportDurations } from '../api/report-types.js';
import { navigate, usePlace } from '../router.js';
import { useSession } from '../session.js';
import { DayBars } from '../ui/day-bars.js';
import { useLoad } from '../ui/hooks.js';
import { Button, durationText, Empty, ErrorNote, Loading, PageHeader } from '../ui/kit.js';

const PRESETS = [7, 14, 30, 90] as const;
const DAY_MS = 86_400_000;

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Today in the browser's zone as `YYYY-MM-DD`, and `days` days before it. */
function localDate(offsetDays = 0): string {
  const d = new Date(Date.now() - offsetDays * DAY_MS);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const duration = (seconds: number | null): string => (seconds === null ? '—' : durationText(seconds));

/**
 * Conversations opened and closed, first-response and resolution times, per day and per agent,
 * in the browser's time zone. The range lives in the address (`?from=&to=`), so a reload or a
 * shared link shows the same days. Owners and admins only (the service refuses agents).
 */
export function ReportsPage(): JSX.Element {
  const { isAdmin } = useSession();
  const { query } = usePlace();
  const from = query.get('from') ?? localDate(13);
  const to = query.get('to') ?? localDate(0);
  const tz = browserTimeZone();
  const report = useLoad(
    () => (isAdmin ? api.get<ConversationReport>(`/api/reports/conversations?from=${from}&to=${to}&tz=${encodeURIComponent(tz)}`) : Promise.resolve(undefined)),
    [from, to, tz, isAdmin],
  );
  const setRange = (nextFrom: string, nextTo: string): void => navigate(`/reports?from=${nextFrom}&to=${nextTo}`, { replace: true });

  if (!isAdmin) {
    return (
      <section>
        <PageHeader title="Reports" />
        <Empty title="Reports are for owners and admins">
          <p>Ask an owner or admin of this workspace for the team's figures.</p>
        </Empty>
      </section>
    );
  }
  const data = report.data;
  return (
    <section>
      <PageHeader title="Reports" />
      <RangePicker from={from} to={to} onChange={setRange} />
      <ErrorNote error={report.error} />
      {data ? (
        <>
          <p class="muted" data-report-range>
            {data.from} to {data.to} · {data.timezone}
          </p>
          <div class="tiles">
            <Tile title="Opened" value={String(data.totals.opened)} note="created, or reopened after closing" />
            <Tile title="Closed" value={String(data.totals.closed)} />
            <DurationTile title="First response" stats={data.totals.first_response} note="first reply by a person" />
            <DurationTile title="Resolution" stats={data.totals.resolution} note="opening to closing" />
          </div>
          <div class="card">
            <h2>Conversations per day</h2>
            <DayBars
              title="Conversations opened and closed per day"
              dates={data.days.map((d) => d.date)}
              series={[
                { label: 'opened', className: 'chart-in', values: data.days.map((d) => d.opened) },
                { label: 'closed', className: 'chart-out', values: data.days.map((d) => d.closed) },
              ]}
            />
          </div>
          <div class="card">
            <h2>Median times per day</h2>
            <DayBars
              title="Median first-response and resolution time per day"
              dates={data.days.map((d) => d.date)}
              format={durationText}
              series={[
                { label: 'first response', className: 'chart-in', values: data.days.map((d) => d.first_response_median_s) },
                { label: 'resolution', className: 'chart-out', values: data.days.map((d) => d.resolution_median_s) },
              ]}
            />
          </div>
          <div class="card">
            <h2>Agents</h2>
            <table class="table" aria-label="Agents">
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col">Closed</th>
                  <th scope="col">First responses</th>
                  <th scope="col">Median first response</th>
                  <th scope="col">Median resolution</th>
                </tr>
              </thead>
              <tbody>
                {data.agents.map((a) => (
                  <tr key={a.user_id} data-agent={a.user_id}>
                    <th scope="row">{a.name || 'Former member'}</th>
                    <td>{a.closed}</td>
                    <td>{a.first_responses}</td>
                    <td>{duration(a.first_response_median_s)}</td>
                    <td>{duration(a.resolution_median_s)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : report.loading ? (
        <Loading />
      ) : null}
    </section>
  );
}

function Tile({ title, value, note }: { title: string; value: string; note?: string }): JSX.Element {
  return (
    <div class="tile" data-tile={title}>
      <h2>{title}</h2>
      <p class="tile-value">{value}</p>
      {note ? <p class="muted">{note}</p> : null}
    </div>
  );
}

function DurationTile({ title, stats, note }: { title: string; stats: ReportDurations; note: string }): JSX.Element {
  return (
    <Tile
      title={title}
      value={duration(stats.median_s)}
      note={stats.count ? `median of ${stats.count}, average ${duration(stats.average_s)}; ${note}` : `none yet; ${note}`}
    />
  );
}

/** Presets (the last 7 to 90 days, today included) and a custom range of two dates. */
function RangePicker({ from, to, onChange }: { from: string; to: string; onChange: (from: string, to: string) => void }): JSX.Element {
  const [customFrom, setCustomFrom] = useState(from);
  const [customTo, setCustomTo] = useState(to);
  const today = localDate(0);
  const preset = PRESETS.find((days) => to === today && from === localDate(days - 1));
  return (
    <form
      class="inline-form report-range"
      aria-label="Date range"
      onSubmit={(event) => {
        event.preventDefault();
        onChange(customFrom, customTo);
      }}
    >
      <div class="field">
        <label for="report-preset">Range</label>
        <select
          id="report-preset"
          value={preset ? String(preset) : 'custom'}
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value === 'custom') return;
            const start = localDate(Number(value) - 1);
            setCustomFrom(start);
            setCustomTo(today);
            onChange(start, today);
          }}
        >
          {PRESETS.map((days) => (
            <option key={days} value={String(days)}>
              Last {days} days
            </option>
          ))}
          <option value="custom">Custom</option>
        </select>
      </div>
      <div class="field">
        <label for="report-from">From</label>
        <input id="report-from" type="date" value={customFrom} max={customTo} required onInput={(event) => setCustomFrom(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="report-to">To</label>
        <input id="report-to" type="date" value={customTo} min={customFrom} required onInput={(event) => setCustomTo(event.currentTarget.value)} />
      </div>
      <Button type="submit" variant="primary">
        Show
      </Button>
    </form>
  );
}
