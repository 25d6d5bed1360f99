import { Injectable } from '@nestjs/common';
import { ApiError } from '../../infra/http/api-error.js';
import type { WorkspaceActor } from '../auth/auth.types.js';
import { Clock } from '../auth/clock/clock.js';
import type { ConversationReportResponse } from './dto/conversation-report.response.js';
import { parseReportWindow } from './report-range.js';
import { ReportsRepository } from './reports.repository.js';

export const REPORTS_FOR_ADMINS = 'only owners and admins can see reports';

/** The conversation report: openings, closings, first-response and resolution times. */
@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Owners, admins and API keys (read keys too) see the whole workspace's report. Agents are
   * refused: the report compares members, and an agent sees only part of the inbox.
   */
  async conversations(actor: WorkspaceActor, from: unknown, to: unknown, tz: unknown): Promise<ConversationReportResponse> {
    if (actor.via === 'session' && actor.role === 'agent') throw ApiError.forbidden(REPORTS_FOR_ADMINS);
    const window = parseReportWindow(from, to, tz, this.clock.date());
    const [totals, days, agents] = await Promise.all([
      this.reports.totals(actor.workspaceId, window),
      this.reports.perDay(actor.workspaceId, window),
      this.reports.perAgent(actor.workspaceId, window),
    ]);
    return {
      timezone: window.timeZone,
      from: window.from,
      to: window.to,
      totals: {
        opened: totals.opened,
        closed: totals.closed,
        first_response: { count: totals.first_response_count, median_s: totals.first_response_median_s, average_s: totals.first_response_average_s },
        resolution: { count: totals.resolution_count, median_s: totals.resolution_median_s, average_s: totals.resolution_average_s },
      },
      days,
      agents,
    };
  }
}
