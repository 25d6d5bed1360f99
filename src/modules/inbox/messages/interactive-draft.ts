import { ApiError } from '../../../infra/http/api-error.js';
import type { ChannelName, OutgoingInteractive } from '../../channels/channel-gateway.port.js';
import { INTERACTIVE_LIMITS, type InteractiveDto } from '../dto/interactive.dto.js';
import { INTERACTIVE_NEEDS_CLOUD } from '../dto/message-request.schema.js';
import type { OutgoingDraft } from './outgoing-draft.js';

const L = INTERACTIVE_LIMITS;
// Characters as the provider (and the request schema's maxLength) counts them: code points.
const length = (text: string): number => [...text].length;

/**
 * An interactive message (`type: "interactive"`): reply buttons or a list, stored as a text of
 * its readable rendering (renderInteractive), sent as the Cloud API's `interactive` message. The
 * fields' own rules (types, lengths, counts) were checked by the request's validation
 * (dto/interactive.dto.ts); here the rules across fields, each a 400 naming the field. Fields the
 * chosen type does not use are left aside, as fields of another send type are.
 */
export function interactiveDraft(dto: { interactive?: InteractiveDto }, now = new Date()): OutgoingDraft {
  const interactive = parseInteractive(dto.interactive);
  return {
    row: { type: 'text', content: renderInteractive(interactive), mediaUrl: '', mimeType: '', fileName: '', fileSize: 0, timestamp: now },
    outgoing: { type: 'interactive', interactive },
  };
}

export function parseInteractive(input: InteractiveDto | undefined): OutgoingInteractive {
  if (!input) throw ApiError.badRequest('interactive is required for interactive messages');
  const body = input.body.trim();
  const header = input.header?.trim() ?? '';
  const footer = input.footer?.trim() ?? '';
  if (input.type === 'buttons') {
    if (!input.buttons) throw ApiError.badRequest('interactive.buttons is required for reply buttons');
    if (length(body) > L.buttonsBody) throw ApiError.badRequest(`interactive.body must be at most ${L.buttonsBody} characters with reply buttons`);
    const buttons = input.buttons.map((button) => ({ id: button.id, title: button.title.trim() }));
    unique(
      buttons.map((b) => b.id),
      (i) => `interactive.buttons.${i}.id repeats another button's id: ids must be unique`,
    );
    unique(
      buttons.map((b) => b.title),
      (i) => `interactive.buttons.${i}.title repeats another button's title: titles must be unique`,
    );
    return { kind: 'buttons', body, header, footer, buttons };
  }
  if (input.button === undefined) throw ApiError.badRequest('interactive.button is required for a list (the label of the button that opens it)');
  if (!input.sections) throw ApiError.badRequest('interactive.sections is required for a list');
  const sections = input.sections.map((section) => ({
    title: section.title?.trim() ?? '',
    rows: section.rows.map((row) => ({ id: row.id, title: row.title.trim(), description: row.description?.trim() ?? '' })),
  }));
  const rows = sections.flatMap((section) => section.rows);
  if (rows.length > L.rows) throw ApiError.badRequest(`interactive.sections hold ${rows.length} rows: a list holds at most ${L.rows} in all its sections`);
  if (sections.length > 1) {
    const untitled = sections.findIndex((section) => !section.title);
    if (untitled >= 0) throw ApiError.badRequest(`interactive.sections.${untitled}.title is required when the list has more than one section`);
  }
  const where = sections.flatMap((section, s) => section.rows.map((_row, r) => `interactive.sections.${s}.rows.${r}.id`));
  unique(
    rows.map((row) => row.id),
    (i) => `${where[i]} repeats another row's id: ids must be unique`,
  );
  return { kind: 'list', body, header, footer, button: input.button.trim(), sections };
}

/** The first value that repeats an earlier one is a 400, with its index. */
function unique(values: string[], refusal: (index: number) => string): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) throw ApiError.badRequest(refusal(index));
    seen.add(value);
  });
}

/**
 * What the inbox stores and shows of an interactive message: header, body and footer as the
 * person sees them, then the buttons in brackets, or the list's button and its rows.
 */
export function renderInteractive(interactive: OutgoingInteractive): string {
  const lines = [interactive.header, interactive.body, interactive.footer].filter(Boolean);
  if (interactive.kind === 'buttons') {
    lines.push(interactive.buttons.map((button) => `[${button.title}]`).join(' '));
    return lines.join('\n');
  }
  lines.push(`[${interactive.button}]`);
  for (const section of interactive.sections) {
    if (section.title) lines.push(`${section.title}:`);
    for (const row of section.rows) lines.push(`- ${row.title}${row.description ? ` (${row.description})` : ''}`);
  }
  return lines.join('\n');
}

/**
 * Interactive messages are the Cloud API's: to a conversation of another channel they are a 400
 * before anything is stored. Call once the conversation (and so its channel) is known.
 */
export function assertChannelTakes(draft: Pick<OutgoingDraft, 'outgoing'>, channel: ChannelName): void {
  if (draft.outgoing.type === 'interactive' && channel !== 'meta') throw ApiError.badRequest(INTERACTIVE_NEEDS_CLOUD);
}
