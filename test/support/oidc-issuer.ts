import { type KeyObject, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Adapter, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/** A Google account as the test issuer presents it in ID tokens. */
export interface TestGoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface TestIssuerOptions {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, standing in for
 * Google: discovery, the authorization endpoint with login and consent interactions, the token
 * endpoint (PKCE, single-use codes) and a JWKS with an RS256 key. The interactions need no
 * form: each logs in `account` (set it before a flow) and grants the requested scopes, or answers
 * `access_denied` when `deny` is set. Switches let a test make it unreachable (`down`), hand out
 * an ID token altered after signing (`tamperIdToken`) or validly signed bad ones (`rewriteIdToken`).
 */
export class TestOidcIssuer {
  account: TestGoogleAccount = { sub: 'google-0', email: 'someone@gmail.test', email_verified: true, name: 'Someone' };
  deny = false;
  down = false;
  tamperIdToken = false;
  /** Rewrites the claims of issued ID tokens, re-signed with the issuer's own key (a validly signed bad token). */
  rewriteIdToken: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Requests for the discovery document, answered or dropped. */
  discoveries = 0;
  private readonly accounts = new Map<string, TestGoogleAccount>();
  private readonly store = new Map<string, AdapterPayload>();
  private provider!: Provider;
  private readonly signingKey: KeyObject = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(options: TestIssuerOptions): Promise<TestOidcIssuer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = new TestOidcIssuer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    issuer.provider = new Provider(issuer.issuer, issuer.configuration(options));
    issuer.provider.use(issuer.tamper());
    const handle = issuer.provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/.well-known/openid-configuration') issuer.discoveries += 1;
      // Unreachable: the connection drops, as when Google cannot be reached at all.
      if (issuer.down) return void req.socket.destroy();
      if (req.url?.startsWith('/interaction/')) return void issuer.interact(req, res).catch((error: unknown) => fail(res, error));
      return void handle(req, res);
    });
    return issuer;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private configuration(options: TestIssuerOptions): Configuration {
    const jwk = this.signingKey.export({ format: 'jwk' });
    return {
      clients: [
        {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          redirect_uris: [options.redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [{ ...jwk, kid: 'test-key', alg: 'RS256', use: 'sig' }] },
      cookies: { keys: [randomBytes(16).toString('hex')] },
      adapter: (model: string) => new MemoryAdapter(model, this.store),
      ttl: { AuthorizationCode: 60, AccessToken: 600, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      // Like Google: the ID token itself carries email and name (no userinfo call needed).
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, sub) => {
        const account = this.accounts.get(sub);
        return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
      },
      renderError: (ctx, out) => {
        ctx.type = 'json';
        ctx.body = out;
      },
    };
  }

  /** Login: the chosen account; consent: every requested scope; or a refusal. */
  private async interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    if (this.deny) {
      await this.provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'the person cancelled' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') {
      this.accounts.set(this.account.sub, { ...this.account });
      await this.provider.interactionFinished(req, res, { login: { accountId: this.account.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new this.provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await this.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /** Changes the ID token on its way out of the token endpoint, keeping or redoing the signature. */
  private tamper() {
    return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path !== '/token' || typeof body?.id_token !== 'string') return;
      const [header, payload, signature] = body.id_token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      if (this.tamperIdToken) {
        const forged = Buffer.from(JSON.stringify({ ...claims, email: 'intruder@gmail.test' })).toString('base64url');
        ctx.body = { ...body, id_token: `${header}.${forged}.${signature}` };
      } else if (this.rewriteIdToken) {
        const rewritten = Buffer.from(JSON.stringify(this.rewriteIdToken(claims))).toString('base64url');
        const resigned = sign('sha256', Buffer.from(`${header}.${rewritten}`), this.signingKey).toString('base64url');
        ctx.body = { ...body, id_token: `${header}.${rewritten}.${resigned}` };
      }
    };
  }
}

/** The provider's storage (codes, sessions, grants, interactions): a Map per issuer, no expiry needed in a test. */
class MemoryAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly store: Map<string, AdapterPayload>,
  ) {}

  private key(id: string): string {
    return `${this.model}:${id}`;
  }

  async upsert(id: string, payload: AdapterPayload): Promise<void> {
    this.store.set(this.key(id), payload);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.store.get(this.key(id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return [...this.store.entries()].find(([key, payload]) => key.startsWith(`${this.model}:`) && payload.uid === uid)?.[1];
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  /** Marks a code used: presenting it again is what oidc-provider refuses as a replay. */
  async consume(id: string): Promise<void> {
    const payload = this.store.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id: string): Promise<void> {
    this.store.delete(this.key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    for (const [key, payload] of this.store) if (payload.grantId === grantId) this.store.delete(key);
  }
}

function fail(res: ServerResponse, error: unknown): void {
  res.statusCode = 500;
  res.end(String(error));
}
