import { ApiProperty } from '@nestjs/swagger';

export class StatusCounts {
  @ApiProperty()
  open: number;

  @ApiProperty()
  pending: number;

  @ApiProperty()
  snoozed: number;

  @ApiProperty()
  closed: number;
}

export class AssigneeCounts {
  @ApiProperty({ description: 'Assigned to the signed-in user (0 for an API key: a key is nobody)' })
  mine: number;

  @ApiProperty({ description: 'Assigned to nobody' })
  unassigned: number;

  @ApiProperty({ description: 'All the caller sees' })
  all: number;
}

export class LabelCount {
  @ApiProperty({ format: 'uuid' })
  label_id: string;

  @ApiProperty()
  count: number;
}

/** `GET /api/conversations/counts`: what the list's filters would find, for tabs and badges. */
export class ConversationCountsResponse {
  @ApiProperty({ type: StatusCounts, description: 'Per status, whatever `?status=` says' })
  status: StatusCounts;

  @ApiProperty({ type: AssigneeCounts, description: 'Within `?status=` (default `open`)' })
  assignee: AssigneeCounts;

  @ApiProperty({ description: 'Within `?status=`: conversations with unread inbound messages' })
  unread: number;

  @ApiProperty({ type: [LabelCount], description: 'Within `?status=`: per label on at least one conversation, most used first' })
  labels: LabelCount[];
}
