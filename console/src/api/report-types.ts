// The shape of GET /api/reports/conversations (docs/inbox.md, "Reports").

export interface ReportDurations {
  count: number;
  median_s: number | null;
  average_s: number | null;
}

export interface ReportDay {
  date: string;
  opened: number;
  closed: number;
  first_response_median_s: number | null;
  resolution_median_s: number | null;
}

export interface ReportAgent {
  user_id: string;
  name: string;
  closed: number;
  first_responses: number;
  first_response_median_s: number | null;
  resolution_median_s: number | null;
}

export interface ConversationReport {
  timezone: string;
  from: string;
  to: string;
  totals: { opened: number; closed: number; first_response: ReportDurations; resolution: ReportDurations };
  days: ReportDay[];
  agents: ReportAgent[];
}
