import type { MetaSettingsResponse } from '../dto/meta-settings.dto.js';
import type { MetaSettingsEntity } from './entities/meta-settings.entity.js';

export function toMetaSettingsResponse(row: MetaSettingsEntity | null): MetaSettingsResponse {
  if (!row) {
    return { phone_number_id: null, waba_id: null, display_phone_number: '', verified_name: '', connected: false, token_set: false, error: null };
  }
  return {
    phone_number_id: row.phoneNumberId,
    waba_id: row.wabaId,
    display_phone_number: row.displayPhoneNumber,
    verified_name: row.verifiedName,
    connected: row.connected,
    token_set: row.accessToken !== '',
    error: row.connected ? null : row.lastError,
  };
}
