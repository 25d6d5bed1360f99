import { createHash } from 'node:crypto';

/** A template as the fake keeps it (and lists it in the provider's shape). */
export interface FakeTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  quality?: string;
  components: Record<string, unknown>[];
}

export interface FakeNumber {
  id: string;
  wabaId: string;
  displayPhoneNumber: string;
  verifiedName: string;
  /** The PIN of the last `/register`, when one was made. */
  pin?: string;
}

export interface FakeMedia {
  id: string;
  data: Buffer;
  mimeType: string;
  phoneNumberId: string;
  sha256: string;
}

/**
 * The accounts the fake knows: numbers in WABAs, tokens and what they may reach, signup codes,
 * media and templates. Tests describe the provider's side with it; the routes read and change it.
 */
export class GraphWorld {
  readonly numbers = new Map<string, FakeNumber>();
  readonly subscriptions = new Map<string, number>();
  readonly templates = new Map<string, FakeTemplate[]>();
  readonly media = new Map<string, FakeMedia>();
  private readonly tokens = new Map<string, Set<string>>();
  private readonly codes = new Map<string, string>();
  private counter = 0;

  /** A 16-digit id like the provider's (template ids arrive as JSON numbers, so they stay below 2^53). */
  nextId(): string {
    return String(1_000_000_000_000_000 + (Date.now() % 100_000_000_000) * 10_000 + (++this.counter % 10_000));
  }

  nextMessageId(): string {
    return `wamid.${Buffer.from(`fake-${this.nextId()}`).toString('base64')}`;
  }

  /** A number of a WABA, reachable with `token` (which also reaches the WABA). */
  addNumber(number: { id: string; wabaId: string; displayPhoneNumber?: string; verifiedName?: string }, token: string): FakeNumber {
    const stored: FakeNumber = {
      displayPhoneNumber: number.displayPhoneNumber ?? `+1 555-${number.id.slice(-3).padStart(3, '0')}-0000`,
      verifiedName: number.verifiedName ?? 'Fake Business',
      ...number,
    };
    this.numbers.set(number.id, stored);
    if (!this.templates.has(number.wabaId)) this.templates.set(number.wabaId, []);
    this.grant(token, number.id, number.wabaId);
    return stored;
  }

  /** Lets `token` reach these objects (numbers, WABAs). */
  grant(token: string, ...objectIds: string[]): void {
    const reach = this.tokens.get(token) ?? new Set<string>();
    for (const id of objectIds) reach.add(id);
    this.tokens.set(token, reach);
  }

  revoke(token: string): void {
    this.tokens.delete(token);
  }

  knowsToken(token: string | null): boolean {
    return token !== null && this.tokens.has(token);
  }

  reaches(token: string | null, objectId: string): boolean {
    return token !== null && (this.tokens.get(token)?.has(objectId) ?? false);
  }

  /** An Embedded Signup code that exchanges (once) for a business token reaching the number and its WABA. */
  addSignupCode(code: string, token: string, number: { id: string; wabaId: string; displayPhoneNumber?: string; verifiedName?: string }): void {
    this.codes.set(code, token);
    this.addNumber(number, token);
  }

  exchange(code: string): string | undefined {
    const token = this.codes.get(code);
    this.codes.delete(code);
    return token;
  }

  addMedia(media: { data: Buffer; mimeType: string; phoneNumberId: string; id?: string }): FakeMedia {
    const stored = { id: media.id ?? this.nextId(), sha256: createHash('sha256').update(media.data).digest('hex'), ...media };
    this.media.set(stored.id, stored);
    return stored;
  }

  addTemplate(wabaId: string, template: Partial<FakeTemplate> & { name: string }): FakeTemplate {
    const stored: FakeTemplate = {
      id: this.nextId(),
      language: 'en_US',
      category: 'UTILITY',
      status: 'APPROVED',
      components: [{ type: 'BODY', text: 'Hello {{1}}' }],
      ...template,
    };
    this.templates.set(wabaId, [...(this.templates.get(wabaId) ?? []), stored]);
    return stored;
  }

  /** A template by its id, with its WABA. */
  templateById(id: string): { wabaId: string; template: FakeTemplate } | undefined {
    for (const [wabaId, list] of this.templates) {
      const template = list.find((t) => t.id === id);
      if (template) return { wabaId, template };
    }
    return undefined;
  }
}
