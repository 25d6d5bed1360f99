import type { JSX } from 'preact';

export interface DayCount {
  date: string;
  inbound: number;
  outbound: number;
}

const HEIGHT = 160;
const BAR_GAP = 4;
const WIDTH = 640;
// Room for the first and last date labels, which are centred under their bars.
const SIDE = 24;

function shortDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year!, month! - 1, day!).toLocaleDateString([], { day: 'numeric', month: 'short' });
}

/**
 * Messages per day as stacked bars (received below, sent on top). The numbers are also in a
 * table that screen readers read instead of the picture.
 */
export function BarChart({ days }: { days: DayCount[] }): JSX.Element {
  const max = Math.max(1, ...days.map((d) => d.inbound + d.outbound));
  const width = WIDTH;
  const bar = (width - 2 * SIDE) / Math.max(days.length, 1) - BAR_GAP;
  const labelEvery = Math.ceil(days.length / 7);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${HEIGHT + 22}`} role="img" aria-labelledby="chart-title">
        <title id="chart-title">Messages per day, received and sent</title>
        <line x1={0} x2={width} y1={HEIGHT} y2={HEIGHT} class="chart-axis" />
        {days.map((d, i) => {
          const x = SIDE + i * (bar + BAR_GAP) + BAR_GAP / 2;
          const inH = (d.inbound / max) * (HEIGHT - 8);
          const outH = (d.outbound / max) * (HEIGHT - 8);
          return (
            <g key={d.date}>
              <title>{`${shortDate(d.date)}: ${d.inbound} received, ${d.outbound} sent`}</title>
              <rect x={x} width={bar} y={HEIGHT - inH} height={inH} class="chart-in" />
              <rect x={x} width={bar} y={HEIGHT - inH - outH} height={outH} class="chart-out" />
              {i % labelEvery === 0 ? (
                <text x={x + bar / 2} y={HEIGHT + 16} class="chart-label" text-anchor="middle">
                  {shortDate(d.date)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        <span class="legend-in">received</span> <span class="legend-out">sent</span> · highest day: {max === 1 && days.every((d) => !d.inbound && !d.outbound) ? 0 : max}
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
