import { Injectable, type OnModuleInit } from '@nestjs/common';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { WorkspaceHooks } from '../../tenants/workspaces/workspace-hooks.js';
import { newWebhookSecret, WEBHOOK_SECRET_PURPOSE } from './webhook-secret.format.js';
import { type SealedSecrets, WebhookSecretRepository } from './webhook-secret.repository.js';

/** The secrets that sign a delivery: `current` always, `previous` for a day after a rotation. */
export interface SigningSecrets {
  current: string;
  previous: string | null;
}

/**
 * The workspace's signing secret: created with the workspace (in its transaction), sealed at
 * rest, readable and rotatable by admins. A workspace without one (created before webhooks
 * existed and migrated without the key, or written straight to the database) gets one on first
 * use, race-free.
 */
@Injectable()
export class WebhookSecretService implements OnModuleInit {
  // Unsealing costs a key derivation lookup and an AES-GCM pass: memoised per sealed value, which
  // changes with every rotation, so the cache can never answer a stale secret.
  private readonly unsealed = new Map<string, string>();

  constructor(
    private readonly repository: WebhookSecretRepository,
    private readonly encryption: EncryptionService,
    private readonly workspaceHooks: WorkspaceHooks,
  ) {}

  onModuleInit(): void {
    this.workspaceHooks.register({
      workspaceCreated: ({ workspaceId, tx }) => this.repository.insert(workspaceId, this.seal(newWebhookSecret()), tx),
    });
  }

  /** The current secret (`whsec_…`), created if missing. */
  async current(workspaceId: string): Promise<string> {
    return (await this.signing(workspaceId)).current;
  }

  /** Both secrets that sign deliveries now. */
  async signing(workspaceId: string): Promise<SigningSecrets> {
    let sealed = await this.repository.find(workspaceId);
    if (!sealed) {
      await this.repository.insert(workspaceId, this.seal(newWebhookSecret()));
      sealed = await this.repository.find(workspaceId);
    }
    return this.unsealAll(sealed!);
  }

  /** A new current secret; the previous one keeps signing Standard Webhooks headers for a day. */
  async rotate(workspaceId: string): Promise<string> {
    const secret = newWebhookSecret();
    if (!(await this.repository.rotate(workspaceId, this.seal(secret)))) {
      await this.current(workspaceId);
      await this.repository.rotate(workspaceId, this.seal(secret));
    }
    return secret;
  }

  /** Unseals secrets a query returned along with other rows (the delivery worker's). */
  unsealAll(sealed: SealedSecrets): SigningSecrets {
    return { current: this.unseal(sealed.secret), previous: sealed.previousSecret ? this.unseal(sealed.previousSecret) : null };
  }

  private seal(secret: string): string {
    return this.encryption.encrypt(secret, WEBHOOK_SECRET_PURPOSE);
  }

  private unseal(sealed: string): string {
    let secret = this.unsealed.get(sealed);
    if (secret === undefined) {
      secret = this.encryption.decryptString(sealed, WEBHOOK_SECRET_PURPOSE);
      if (this.unsealed.size >= 10_000) this.unsealed.clear();
      this.unsealed.set(sealed, secret);
    }
    return secret;
  }
}
