import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import { shortDate, useWidth } from './chart-parts.js';

export interface DayCount {
  date: string;
  inbound: number;
  outbound: number;
}

const HEIGHT = 160;
const BAR_GAP = 4;
// Room above the highest bar for its total.
const TOP = 18;
// The drawing is as wide as the figure (useWidth), so one unit is one pixel and the labels keep
// their size on a phone instead of shrinking with the bars.
// Room for the first and last date labels, which are centred under their bars.
const SIDE = 24;
// A date label is about this wide: fewer labels fit a narrow chart.
const LABEL_ROOM = 56;

/**
 * Messages per day as stacked bars (received below, sent on top). The numbers are also in a
 * table that screen readers read instead of the picture.
 */
export function BarChart({ days }: { days: DayCount[] }): JSX.Element {
  const figure = useRef<HTMLElement>(null);
  const width = useWidth(figure);
  const max = Math.max(1, ...days.map((d) => d.inbound + d.outbound));
  const bar = Math.max(1, (width - 2 * SIDE) / Math.max(days.length, 1) - BAR_GAP);
  // Today is always labelled; the days before it every few days, as many as fit.
  const labels = Math.max(2, Math.floor((width - 2 * SIDE) / LABEL_ROOM));
  const labelEvery = Math.ceil(days.length / labels);
  return (
    <figure class="chart" ref={figure}>
      <svg viewBox={`0 0 ${width} ${HEIGHT + 22}`} role="img" aria-labelledby="chart-title">
        <title id="chart-title">Messages per day, received and sent</title>
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} class="chart-axis" />
        {days.map((d, i) => {
          const x = SIDE + i * (bar + BAR_GAP) + BAR_GAP / 2;
          const inH = (d.inbound / max) * (HEIGHT - TOP);
          const outH = (d.outbound / max) * (HEIGHT - TOP);
          return (
            <g key={d.date}>
              <title>{`${shortDate(d.date)}: ${d.inbound} received, ${d.outbound} sent`}</title>
              <rect x={x} width={bar} y={HEIGHT - inH} height={inH} class="chart-in" />
              <rect x={x} width={bar} y={HEIGHT - inH - outH} height={outH} class="chart-out" />
              {d.inbound + d.outbound > 0 && bar >= 14 ? (
                <text x={x + bar / 2} y={HEIGHT - inH - outH - 4} class="chart-label chart-total" text-anchor="middle">
                  {d.inbound + d.outbound}
                </text>
              ) : null}
              {(days.length - 1 - i) % labelEvery === 0 ? (
                <text x={x + bar / 2} y={HEIGHT + 16} class="chart-label" text-anchor="middle">
                  {shortDate(d.date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        <span class="legend-in">received</span> <span class="legend-out">sent</span> · highest day:{' '}
        {max === 1 && days.every((d) => !d.inbound && !d.outbound) ? 0 : max}
      </figcaption>
      <div class="visually-hidden">
        <table>
          <caption>Messages per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Received</th>
              <th scope="col">Sent</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row">{d.date}</th>
                <td>{d.inbound}</td>
                <td>{d.outbound}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
