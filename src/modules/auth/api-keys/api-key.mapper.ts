import type { ApiKeyEntity } from '../entities/api-key.entity.js';
import type { ApiKeyResponse, CreatedApiKeyResponse } from './dto/api-key.response.js';

const iso = (date: Date | null): string | null => (date ? new Date(date).toISOString() : null);

/** Listing shape: `key_hash` and `created_by` stay inside. */
export function toApiKeyResponse(entity: ApiKeyEntity): ApiKeyResponse {
  return {
    id: entity.id,
    workspace_id: entity.workspaceId,
    name: entity.name,
    scope: entity.scope,
    prefix: entity.prefix,
    created_at: iso(entity.createdAt)!,
    expires_at: iso(entity.expiresAt)!,
    last_used_at: iso(entity.lastUsedAt),
    revoked_at: iso(entity.revokedAt),
  };
}

/** The created key: exactly the list item, plus the key itself (shown this once). */
export function toCreatedApiKeyResponse(entity: ApiKeyEntity, key: string): CreatedApiKeyResponse {
  return { ...toApiKeyResponse(entity), key };
}
