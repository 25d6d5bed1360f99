import { ApiProperty } from '@nestjs/swagger';

export class DurationStatsResponse {
  @ApiProperty({ description: 'How many were measured' })
  count: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Median in seconds (null when none)' })
  median_s: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Average in seconds (null when none)' })
  average_s: number | null;
}

export class ReportTotalsResponse {
  @ApiProperty({ description: 'Openings in the range: conversations created, or reopened after being closed' })
  opened: number;

  @ApiProperty({ description: 'Closings in the range' })
  closed: number;

  @ApiProperty({
    type: DurationStatsResponse,
    description: "First responses: an opening's first inbound message to the first reply a person sent (Console or API)",
  })
  first_response: DurationStatsResponse;

  @ApiProperty({ type: DurationStatsResponse, description: 'Resolutions: opening to closing, for the closings in the range' })
  resolution: DurationStatsResponse;
}

export class ReportDayResponse {
  @ApiProperty({ example: '2026-11-22', description: 'The day, in the requested time zone' })
  date: string;

  @ApiProperty()
  opened: number;

  @ApiProperty()
  closed: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Median first-response time of the first responses that day' })
  first_response_median_s: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Median resolution time of the closings that day' })
  resolution_median_s: number | null;
}

export class ReportAgentResponse {
  @ApiProperty({ format: 'uuid' })
  user_id: string;

  @ApiProperty({ description: 'The member’s name (their email when they set none; "" once the account is gone)' })
  name: string;

  @ApiProperty({ description: 'Closings of conversations assigned to them' })
  closed: number;

  @ApiProperty({ description: 'First responses they sent (a key’s count for the assignee)' })
  first_responses: number;

  @ApiProperty({ type: 'integer', nullable: true })
  first_response_median_s: number | null;

  @ApiProperty({ type: 'integer', nullable: true })
  resolution_median_s: number | null;
}

export class ConversationReportResponse {
  @ApiProperty({ example: 'Europe/Berlin', description: 'The time zone the days are counted in (canonical name)' })
  timezone: string;

  @ApiProperty({ example: '2026-11-09', description: 'First day of the range (inclusive)' })
  from: string;

  @ApiProperty({ example: '2026-11-22', description: 'Last day of the range (inclusive)' })
  to: string;

  @ApiProperty({ type: ReportTotalsResponse })
  totals: ReportTotalsResponse;

  @ApiProperty({ type: [ReportDayResponse], description: 'Every day of the range, oldest first; days without activity count 0' })
  days: ReportDayResponse[];

  @ApiProperty({ type: [ReportAgentResponse], description: 'Every member, and former members with activity in the range; most closed first' })
  agents: ReportAgentResponse[];
}
