import { ApiProperty } from '@nestjs/swagger';

export class DayCountResponse {
  @ApiProperty({ example: '2026-11-22', description: 'The day, in the requested time zone' })
  date: string;

  @ApiProperty({ description: 'Messages received that day' })
  inbound: number;

  @ApiProperty({ description: 'Messages sent that day (from the Console, the API, automations or the phone)' })
  outbound: number;
}

export class InboxStatsResponse {
  @ApiProperty({ example: 'Europe/Berlin', description: 'The time zone the days are counted in' })
  timezone: string;

  @ApiProperty({ type: [DayCountResponse], description: 'One entry per day, oldest first, today last; days without messages count 0' })
  days: DayCountResponse[];

  @ApiProperty({ description: 'Open conversations' })
  open: number;

  @ApiProperty({ description: 'Open conversations nobody is assigned to' })
  unassigned: number;
}
