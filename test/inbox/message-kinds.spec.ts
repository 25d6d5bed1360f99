import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { SEND_TYPES, SENDABLE_KINDS } from '../../src/modules/inbox/dto/message.dto.js';
import { MESSAGE_TYPES } from '../../src/modules/inbox/entities/message.entity.js';
import { insertMessagesSql, type MessageInsertValues, previewSql } from '../../src/modules/inbox/inbox-columns.js';
import {
  CONTRACT_MESSAGE_TYPES,
  isMediaKind,
  isMessageKind,
  isTimedKind,
  MEDIA_KINDS,
  MESSAGE_KIND_NAMES,
  MESSAGE_KINDS,
  messageTypeOf,
  storedFileName,
} from '../../src/modules/inbox/message-kinds.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-env.js';

// The conversation preview as it was written by hand before the catalogue: what every kind of
// today must still preview as.
const PREVIEW_BEFORE = `CASE WHEN r.content <> '' THEN left(r.content, 200)
        WHEN r.message_type = 'image' THEN '[image]'
        WHEN r.file_name <> '' THEN r.file_name
        ELSE '[document]' END`;

/**
 * The catalogue of message kinds (src/modules/inbox/message-kinds.ts): every kind's contract
 * type, preview and media rule in one entry, and the SQL built from it.
 */
describe('message kinds', () => {
  let db: { name: string; url: string };
  let client: pg.Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    if (db) await dropTestDatabase(db.name);
  });

  /** The preview of each row, computed by Postgres with `expression` over the row `r`. */
  async function previews(expression: string, rows: { kind: string; content: string; fileName: string }[]): Promise<string[]> {
    const { rows: answered } = await client.query<{ preview: string }>(
      `SELECT ${expression} AS preview
         FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(message_type, content, file_name, ord)
        ORDER BY r.ord`,
      [rows.map((row) => row.kind), rows.map((row) => row.content), rows.map((row) => row.fileName)],
    );
    return answered.map((row) => row.preview);
  }

  it('gives every kind a contract message_type, a preview and a media rule', () => {
    expect(MESSAGE_KIND_NAMES).toEqual(['text', 'image', 'document', 'video', 'audio', 'voice', 'sticker', 'location', 'contacts', 'poll', 'unsupported']);
    for (const kind of MESSAGE_KIND_NAMES) {
      const spec = MESSAGE_KINDS[kind];
      expect(CONTRACT_MESSAGE_TYPES).toContain(spec.messageType);
      expect(messageTypeOf(kind)).toBe(spec.messageType);
      expect(spec.preview.placeholder).toMatch(/^\[.+\]$/);
      expect(typeof spec.preview.fileName).toBe('boolean');
      expect(isMessageKind(kind)).toBe(true);
      expect(isMediaKind(kind)).toBe(spec.media !== null);
      if (spec.media) {
        expect(spec.media.sendFetchLimit).toBeGreaterThan(0);
        expect(spec.media.defaultMimeType).toMatch(/^[a-z]+\/[a-z0-9.+-]+(; [a-z]+=[a-z0-9]+)?$/);
        expect(spec.media.noun).toMatch(/^an? /);
      }
    }
    // Every type of the contract is some kind's.
    expect(new Set(MESSAGE_KIND_NAMES.map(messageTypeOf))).toEqual(new Set(CONTRACT_MESSAGE_TYPES));
    expect(MEDIA_KINDS).toEqual(['image', 'document', 'video', 'audio', 'voice', 'sticker']);
    // The contract's coarse class of each kind (docs/message-kinds.md).
    expect(Object.fromEntries(MESSAGE_KIND_NAMES.map((kind) => [kind, messageTypeOf(kind)]))).toEqual({
      text: 'text',
      image: 'image',
      document: 'document',
      video: 'document',
      audio: 'document',
      voice: 'document',
      sticker: 'image',
      location: 'text',
      contacts: 'text',
      poll: 'text',
      unsupported: 'text',
    });
    expect(MESSAGE_KIND_NAMES.filter(isTimedKind)).toEqual(['video', 'audio', 'voice']);
    expect(isMessageKind('gif')).toBe(false);
    expect(isMessageKind('toString')).toBe(false);
  });

  it('keeps the vocabularies that follow from it', () => {
    expect(MESSAGE_TYPES).toEqual(['text', 'image', 'document']);
    // Every kind but a poll and `unsupported` can be sent; beside them templates, interactive messages and reactions.
    expect(SENDABLE_KINDS).toEqual(MESSAGE_KIND_NAMES.filter((kind) => kind !== 'poll' && kind !== 'unsupported'));
    expect(SEND_TYPES).toEqual([...SENDABLE_KINDS, 'template', 'interactive', 'reaction']);
    // The media rules as the sends and downloads have always applied them.
    expect(MESSAGE_KINDS.image.media).toMatchObject({
      sendFetchLimit: 16 * 1024 * 1024,
      defaultMimeType: 'image/jpeg',
      mimeFamily: { prefix: 'image/' },
      fileName: null,
    });
    expect(MESSAGE_KINDS.document.media).toMatchObject({ sendFetchLimit: 64 * 1024 * 1024, defaultMimeType: 'application/octet-stream', mimeFamily: null });
    // WhatsApp's own limits of the newer kinds: 16 MB audio and video, 500 KB a sticker.
    expect(MESSAGE_KINDS.video.media).toMatchObject({ sendFetchLimit: 16 * 1024 * 1024, defaultMimeType: 'video/mp4', mimeFamily: { prefix: 'video/' } });
    expect(MESSAGE_KINDS.audio.media).toMatchObject({ sendFetchLimit: 16 * 1024 * 1024, mimeFamily: { prefix: 'audio/' } });
    expect(MESSAGE_KINDS.voice.media).toMatchObject({ sendFetchLimit: 16 * 1024 * 1024, defaultMimeType: 'audio/ogg; codecs=opus' });
    expect(MESSAGE_KINDS.sticker.media).toMatchObject({ sendFetchLimit: 500 * 1024, defaultMimeType: 'image/webp' });
    expect(storedFileName('voice', 'note.ogg')).toBeNull();
    expect(storedFileName('document', 'report.pdf')).toBe('report.pdf');
    expect(storedFileName('document', '')).toBe('document');
    expect(storedFileName('image', 'photo.jpg')).toBeNull();
    expect(storedFileName('text', '')).toBeNull();
  });

  it('previews the kinds of before as the preview always did, and each newer kind by its placeholder', async () => {
    const long = 'x'.repeat(250);
    const rows = MESSAGE_KIND_NAMES.flatMap((kind) =>
      ['', 'a caption', long, "it's"].flatMap((content) => ['', 'report.pdf'].map((fileName) => ({ kind, content, fileName }))),
    );
    const now = await previews(previewSql('r'), rows);
    const before = await previews(PREVIEW_BEFORE, rows);
    const old = (row: { kind: string }): boolean => ['text', 'image', 'document'].includes(row.kind);
    expect(now.filter((_p, i) => old(rows[i]!))).toEqual(before.filter((_p, i) => old(rows[i]!)));

    const of = (kind: string, content: string, fileName: string): string | undefined =>
      now[rows.findIndex((row) => row.kind === kind && row.content === content && row.fileName === fileName)];
    expect(of('text', 'a caption', '')).toBe('a caption');
    expect(of('image', long, '')).toBe('x'.repeat(200));
    expect(of('image', '', 'report.pdf')).toBe('[image]');
    expect(of('document', '', 'report.pdf')).toBe('report.pdf');
    expect(of('document', '', '')).toBe('[document]');
    expect(of('document', "it's", '')).toBe("it's");
    expect(['video', 'audio', 'voice', 'sticker', 'location', 'contacts', 'poll', 'unsupported'].map((kind) => of(kind, '', 'report.pdf'))).toEqual([
      '[video]',
      '[audio]',
      '[voice message]',
      '[sticker]',
      '[location]',
      '[contact]',
      '[poll]',
      '[unsupported message]',
    ]);
    expect(of('video', 'a caption', '')).toBe('a caption');
  });

  it('does not preview a kind outside the catalogue as a document', async () => {
    const [preview] = await previews(previewSql('r'), [{ kind: 'gif', content: '', fileName: '' }]);
    expect(preview).toBe('[gif]');
  });

  it('inserts every column of the messages table but those Postgres fills in', async () => {
    const { rows } = await client.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'messages' AND table_schema = current_schema() ORDER BY ordinal_position`,
    );
    // Reactions, edits and deletes come later (MessageUpdatesService): a new row takes their defaults.
    const table = rows
      .map((row) => row.column_name)
      .filter((column) => !['id', 'created_at', 'error', 'reactions', 'edited_at', 'deleted_at'].includes(column));
    const every = Object.fromEntries(table.map((column) => [column, `v_${column}`])) as unknown as MessageInsertValues;
    const sql = insertMessagesSql(every);
    const listed = /^INSERT INTO messages \(([^)]*)\)\s+SELECT (.*)$/s.exec(sql);
    expect(listed?.[1]?.split(', ').sort()).toEqual([...table].sort());
    // Each value lines up with its column.
    expect(listed?.[2]?.split(', ')).toEqual(listed?.[1]?.split(', ').map((column) => `v_${column}`));

    // A column given as null keeps its default: it is left out of both lists.
    const withDefaults = insertMessagesSql({ ...every, seq: null, sender_jid: null });
    expect(withDefaults).not.toMatch(/\bseq\b|sender_jid/);
  });
});
