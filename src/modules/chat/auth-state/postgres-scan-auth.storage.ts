import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import type { ScanAuthStorage, ScanAuthStorageFactory, ScanKeyWrite } from '../driver/scan-driver.port.js';
import { ScanAuthRepository } from './scan-auth.repository.js';

// Purposes of the keys derived from ENCRYPTION_KEY: one for the values, one for hashing key ids.
const VALUE_PURPOSE = 'scan-auth-state';
const ID_PURPOSE = 'scan-auth-key-id';
const CREDS = 'creds';

/**
 * A scan session's auth state in Postgres (`scan_auth_keys`), encrypted at rest with AES-256-GCM
 * (EncryptionService). Values are the driver's serialised strings, opaque here. Key ids are
 * stored as an HMAC bound to the workspace and type, so the table names no contact and a row
 * copied to another workspace or type does not match any lookup. Errors are never caught here:
 * a failed write must reach the driver, which stops the session.
 */
@Injectable()
export class PostgresScanAuthStorageFactory implements ScanAuthStorageFactory {
  constructor(
    private readonly repository: ScanAuthRepository,
    private readonly encryption: EncryptionService,
  ) {}

  forWorkspace(workspaceId: string): ScanAuthStorage {
    const hashId = (type: string, id: string): string =>
      createHmac('sha256', this.encryption.deriveKey(ID_PURPOSE)).update(`${workspaceId}\u0000${type}\u0000${id}`).digest('base64url');
    const seal = (value: string): string => this.encryption.encrypt(value, VALUE_PURPOSE);
    const open = (sealed: string): string => this.encryption.decryptString(sealed, VALUE_PURPOSE);

    const readKeys = async (type: string, ids: readonly string[]): Promise<Map<string, string>> => {
      const byHash = new Map(ids.map((id) => [hashId(type, id), id] as const));
      const rows = await this.repository.read(workspaceId, type, [...byHash.keys()]);
      const values = new Map<string, string>();
      for (const [keyId, sealed] of rows) values.set(byHash.get(keyId)!, open(sealed));
      return values;
    };
    const writeKeys = (writes: readonly ScanKeyWrite[]): Promise<void> =>
      this.repository.write(
        workspaceId,
        writes.map((w) => ({ type: w.type, keyId: hashId(w.type, w.id), value: w.value === null ? null : seal(w.value) })),
      );

    return {
      readCreds: async () => (await readKeys(CREDS, [CREDS])).get(CREDS) ?? null,
      writeCreds: (value) => writeKeys([{ type: CREDS, id: CREDS, value }]),
      readKeys,
      writeKeys,
      clear: () => this.repository.clear(workspaceId),
    };
  }
}
