import { Injectable } from '@nestjs/common';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { Clock } from '../clock/clock.js';
import { FLOW_TTL_MS } from './google-cookies.js';
import type { FlowChecks } from './google-oidc.client.js';

const PURPOSE = 'google-flow-cookie';

interface SealedFlow {
  s: string;
  n: string;
  v: string;
  /** Expiry, epoch ms on the injected clock. */
  e: number;
}

/**
 * Seals one attempt's state, nonce and PKCE verifier into the `svc_google_flow` cookie value
 * (AES-256-GCM under a key derived from ENCRYPTION_KEY): the browser holds them between start and
 * callback, the server stores nothing, and a changed or foreign value fails to open.
 */
@Injectable()
export class GoogleFlowSealer {
  constructor(
    private readonly encryption: EncryptionService,
    private readonly clock: Clock,
  ) {}

  seal(checks: FlowChecks): string {
    const flow: SealedFlow = { s: checks.state, n: checks.nonce, v: checks.codeVerifier, e: this.clock.now() + FLOW_TTL_MS };
    return this.encryption.encrypt(JSON.stringify(flow), PURPOSE);
  }

  /** The attempt's checks, or null when the value is missing, not ours, or expired. */
  open(sealed: string | undefined): FlowChecks | null {
    if (!sealed || sealed.length > 1024) return null;
    let flow: Partial<SealedFlow>;
    try {
      flow = JSON.parse(this.encryption.decryptString(sealed, PURPOSE)) as Partial<SealedFlow>;
    } catch {
      return null;
    }
    const { s, n, v, e } = flow;
    if (typeof s !== 'string' || typeof n !== 'string' || typeof v !== 'string' || typeof e !== 'number') return null;
    if (e <= this.clock.now()) return null;
    return { state: s, nonce: n, codeVerifier: v };
  }
}
