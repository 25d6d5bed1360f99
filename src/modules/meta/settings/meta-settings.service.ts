import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTransaction, type SqlExecutor } from '../../../infra/database/sql-transaction.js';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { ApiError } from '../../../infra/http/api-error.js';
import type { MetaSettingsResponse, PutMetaSettingsDto } from '../dto/meta-settings.dto.js';
import { type MetaStateChange, MetaSessionStatus } from '../forwarding/meta-session-status.js';
import { GraphApi } from '../graph/graph-api.js';
import type { MetaSettingsEntity } from './entities/meta-settings.entity.js';
import { providerFailure } from '../provider-errors.js';
import { toMetaSettingsResponse } from './meta-settings.mapper.js';
import { MetaSettingsRepository } from './meta-settings.repository.js';

export const NUMBER_TAKEN = 'this phone number is connected to another workspace';
export const SETTINGS_REJECTED = 'provider rejected the settings';
export const NUMBER_NOT_IN_WABA = 'phone_number_id is not a number of waba_id';
export const TOKEN_REQUIRED = 'access_token is required';
export const SETTINGS_NOT_FOUND = 'cloud channel settings not found';

const TOKEN_PURPOSE = 'meta-access-token';
const PIN_PURPOSE = 'meta-registration-pin';

/** What sending, media and templates need of a workspace's number. */
export interface MetaCredentials {
  phoneNumberId: string;
  wabaId: string;
  token: string;
  connected: boolean;
  /** The number as the provider displays it (`+1 555-0100`), '' when unknown. */
  displayPhoneNumber: string;
}

/** A number to check and save. */
export interface NumberToConnect {
  phoneNumberId: string;
  wabaId: string;
  token: string;
  /** The two-step verification PIN signup registered the number with. */
  pin?: string;
  /** The app was just subscribed to the WABA (signup): do not do it again. */
  subscribed?: boolean;
}

/** What the provider confirmed about a number. */
export interface VerifiedNumber {
  displayPhoneNumber: string;
  verifiedName: string;
}

/**
 * A workspace's Cloud API number (`/api/meta/settings`): checked against the provider before it
 * is saved, the token sealed at rest, and a number on at most one workspace.
 */
@Injectable()
export class MetaSettingsService {
  constructor(
    private readonly repository: MetaSettingsRepository,
    private readonly graph: GraphApi,
    private readonly encryption: EncryptionService,
    private readonly status: MetaSessionStatus,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async get(workspaceId: string): Promise<MetaSettingsResponse> {
    return toMetaSettingsResponse(await this.repository.find(workspaceId));
  }

  async put(workspaceId: string, dto: PutMetaSettingsDto): Promise<MetaSettingsResponse> {
    const existing = await this.repository.find(workspaceId);
    let token = dto.access_token;
    if (!token) {
      if (!existing) throw ApiError.badRequest(TOKEN_REQUIRED);
      token = this.encryption.decryptString(existing.accessToken, TOKEN_PURPOSE);
    }
    const number = { phoneNumberId: dto.phone_number_id, wabaId: dto.waba_id, token };
    return toMetaSettingsResponse(await this.connect(workspaceId, number, SETTINGS_REJECTED));
  }

  /** 409 when another workspace has the number: checked before any provider call. */
  async ensureNumberFree(workspaceId: string, phoneNumberId: string): Promise<void> {
    if (await this.repository.numberTakenElsewhere(workspaceId, phoneNumberId)) throw ApiError.conflict(NUMBER_TAKEN);
  }

  /**
   * Checks the number with the provider (the token reads it, it belongs to the WABA, the app is
   * subscribed to the WABA's webhooks, unless the caller just did that) and saves it. Shared by
   * the settings route and signup.
   */
  async connect(workspaceId: string, number: NumberToConnect, rejected: string): Promise<MetaSettingsEntity> {
    const { phoneNumberId, wabaId, token, pin } = number;
    await this.ensureNumberFree(workspaceId, phoneNumberId);
    const verified = await this.verify(token, phoneNumberId, wabaId, rejected, !number.subscribed);
    const settings = {
      phoneNumberId,
      wabaId,
      ...verified,
      accessToken: this.encryption.encrypt(token, TOKEN_PURPOSE),
      registrationPin: pin === undefined ? undefined : this.encryption.encrypt(pin, PIN_PURPOSE),
    };
    const saved = await this.changingState(workspaceId, async (tx) => {
      const row = await this.repository.save(workspaceId, settings, tx);
      if (row === 'conflict' || row.wasConnected === true) return { result: row, change: null };
      // Connected (again): after none, or after the provider refused the token.
      const previousState = row.wasConnected === null ? 'disconnected' : 'token_refused';
      return { result: row, change: { state: 'connected', previousState, since: row.updatedAt, phoneNumberId, error: '' } };
    }).catch((error: unknown) => {
      // The number taken meanwhile (unique violation), raised by the transaction it failed.
      if ((error as { code?: string }).code === '23505') return 'conflict' as const;
      throw error;
    });
    if (saved === 'conflict') throw ApiError.conflict(NUMBER_TAKEN);
    const { wasConnected: _wasConnected, ...entity } = saved;
    return entity;
  }

  async remove(workspaceId: string): Promise<void> {
    const removed = await this.changingState(workspaceId, async (tx) => {
      const row = await this.repository.delete(workspaceId, tx);
      const previousState = row?.connected ? 'connected' : 'token_refused';
      return { result: row, change: row && { state: 'disconnected', previousState, since: new Date(), phoneNumberId: row.phoneNumberId, error: '' } };
    });
    if (!removed) throw ApiError.notFound(SETTINGS_NOT_FOUND);
  }

  /** Whether the workspace has a Cloud API number (connected or not). */
  async hasNumber(workspaceId: string): Promise<boolean> {
    return (await this.repository.find(workspaceId)) !== null;
  }

  /** The workspace's number with its token in clear, or null when it has none. */
  async credentials(workspaceId: string): Promise<MetaCredentials | null> {
    const row = await this.repository.find(workspaceId);
    if (!row) return null;
    return {
      phoneNumberId: row.phoneNumberId,
      wabaId: row.wabaId,
      token: this.encryption.decryptString(row.accessToken, TOKEN_PURPOSE),
      connected: row.connected,
      displayPhoneNumber: row.displayPhoneNumber,
    };
  }

  /** The provider refused the workspace's token (expired or revoked): stop using it. */
  async tokenRefused(workspaceId: string, reason: string): Promise<void> {
    await this.changingState(workspaceId, async (tx) => {
      const row = await this.repository.markDisconnected(workspaceId, reason, tx);
      return {
        result: row,
        change: row && { state: 'token_refused', previousState: 'connected', since: row.updatedAt, phoneNumberId: row.phoneNumberId, error: reason },
      };
    });
  }

  /**
   * A settings write that may change the number's state, in one transaction with its
   * `session.status` event (webhook outbox), whose deliveries are woken after the commit.
   */
  private async changingState<T>(workspaceId: string, work: (tx: SqlExecutor) => Promise<{ result: T; change: MetaStateChange | null }>): Promise<T> {
    const { result, written } = await inTransaction(this.db, async (tx) => {
      const { result, change } = await work(tx);
      return { result, written: change ? await this.status.write(workspaceId, tx, change) : null };
    });
    if (written) await this.status.enqueue(workspaceId, written);
    return result;
  }

  private async verify(token: string, phoneNumberId: string, wabaId: string, rejected: string, subscribe: boolean): Promise<VerifiedNumber> {
    try {
      const number = await this.graph.phoneNumber(token, phoneNumberId);
      const numbers = await this.graph.wabaPhoneNumbers(token, wabaId);
      if (!numbers.some((n) => n.id === phoneNumberId)) throw ApiError.badRequest(NUMBER_NOT_IN_WABA);
      if (subscribe) await this.graph.subscribeApp(token, wabaId);
      return { displayPhoneNumber: number.display_phone_number ?? '', verifiedName: number.verified_name ?? '' };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw providerFailure(rejected, error);
    }
  }
}
