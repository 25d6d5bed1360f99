import type { JSX } from 'preact';
import type { ContactCard, MessageLocation, MessagePoll } from '../../api/types.js';

// The kinds whose parts the service hands over as fields (a place, contact cards, a poll) and the
// ones it could only describe (unsupported). Each falls back to the message's readable `content`
// when the fields are missing (a message stored before the service kept them).

const coordinate = (value: number): string => String(Math.round(value * 1e6) / 1e6);

/**
 * OpenStreetMap's page for the point, opened in a new tab: a link rather than an embedded map, so
 * the Console loads no tiles from elsewhere (its Content Security Policy allows none).
 */
export function mapHref(location: Pick<MessageLocation, 'latitude' | 'longitude'>): string {
  const lat = coordinate(location.latitude);
  const lon = coordinate(location.longitude);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`;
}

export function LocationCard({ location }: { location: MessageLocation }): JSX.Element {
  const title = location.name || 'Location';
  return (
    <div class="media-card media-location">
      <a href={mapHref(location)} target="_blank" rel="noopener noreferrer" class="location-link">
        📍 {title}
      </a>
      {location.address ? <span class="card-line">{location.address}</span> : null}
      <span class="card-line muted">
        {coordinate(location.latitude)}, {coordinate(location.longitude)}
      </span>
      {/* The sender's own link (a place's page): shown as text to copy, not opened from here. */}
      {location.url ? <span class="card-line muted location-url">{location.url}</span> : null}
    </div>
  );
}

export function ContactCards({ cards }: { cards: ContactCard[] }): JSX.Element {
  return (
    <ul class="contact-cards" aria-label={cards.length === 1 ? 'Contact card' : `${cards.length} contact cards`}>
      {cards.map((card, i) => (
        <li key={i} class="media-card contact-card">
          <span class="contact-card-name">👤 {card.name || 'Contact'}</span>
          {card.phones.map((phone) => (
            <a key={phone} class="card-line" href={`tel:+${phone}`}>
              +{phone}
            </a>
          ))}
        </li>
      ))}
    </ul>
  );
}

export function PollCard({ poll }: { poll: MessagePoll }): JSX.Element {
  return (
    <div class="media-card poll" role="group" aria-label={`Poll: ${poll.question}`}>
      <span class="poll-question">📊 {poll.question}</span>
      <ul class="poll-options">
        {poll.options.map((option, i) => (
          <li key={i}>{option}</li>
        ))}
      </ul>
      <span class="card-line muted">{poll.multiple ? 'Multiple answers allowed' : 'One answer'}</span>
    </div>
  );
}

/** Something WhatsApp delivered that the inbox cannot show (a call, an order, …): its description. */
export function UnsupportedNote({ content }: { content: string }): JSX.Element {
  return <p class="bubble-text bubble-unsupported">{content || 'A message this inbox cannot show'}</p>;
}
