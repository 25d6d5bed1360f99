import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import { shortDate, useWidth } from './chart-parts.js';

/** One series of a day chart: its label, its bar colour class, one value per day (null: none). */
export interface DaySeries {
  label: string;
  className: string;
  values: (number | null)[];
}

const HEIGHT = 140;
const TOP = 18;
const SIDE = 24;
const GAP = 4;
const LABEL_ROOM = 56;

/**
 * Bars per day, the series side by side (unlike BarChart's stacked messages): counts, or
 * durations (`format`). The figures are also in a table that screen readers read instead.
 */
export function DayBars({
  title,
  dates,
  series,
  format = String,
}: {
  title: string;
  dates: string[];
  series: DaySeries[];
  format?: (value: number) => string;
}): JSX.Element {
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure);
  const max = Math.max(1, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
  const slot = (width - 2 * SIDE) / Math.max(dates.length, 1);
  const bar = Math.max(1, (slot - GAP) / series.length);
  const labelEvery = Math.ceil(dates.length / Math.max(2, Math.floor((width - 2 * SIDE) / LABEL_ROOM)));
  const titleId = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <figure class="chart" ref={figure}>
      <svg viewBox={`0 0 ${width} ${HEIGHT + 22}`} role="img" aria-labelledby={titleId}>
        <title id={titleId}>{title}</title>
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} class="chart-axis" />
        {dates.map((date, i) => {
          const x0 = SIDE + i * slot + GAP / 2;
          return (
            <g key={date}>
              <title>{`${shortDate(date)}: ${series.map((s) => `${s.label} ${s.values[i] === null ? '—' : format(s.values[i]!)}`).join(', ')}`}</title>
              {series.map((s, j) => {
                const value = s.values[i] ?? 0;
                const h = (value / max) * (HEIGHT - TOP);
                return <rect key={s.label} x={x0 + j * bar} width={bar} y={HEIGHT - h} height={h} class={s.className} />;
              })}
              {(dates.length - 1 - i) % labelEvery === 0 ? (
                <text x={x0 + (bar * series.length) / 2} y={HEIGHT + 16} class="chart-label" text-anchor="middle">
                  {shortDate(date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        {series.map((s) => (
          <span key={s.label} class={`legend-${s.className}`}>
            {s.label}{' '}
          </span>
        ))}
        · highest: {series.some((s) => s.values.some((v) => v)) ? format(max) : '—'}
      </figcaption>
      <div class="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {series.map((s) => (
                <th scope="col" key={s.label}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {dates.map((date, i) => (
              <tr key={date}>
                <th scope="row">{date}</th>
                {series.map((s) => (
                  <td key={s.label}>{s.values[i] === null ? '—' : format(s.values[i]!)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
