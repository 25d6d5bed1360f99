import { ApiProperty } from '@nestjs/swagger';

/** docs/content.md#knowledge-articles: a knowledge article. */
export class ArticleResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Refund policy' })
  title: string;

  @ApiProperty()
  body: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}

/** One search hit, best first. */
export class ArticleHitResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  body: string;

  @ApiProperty({
    example: 0.41,
    minimum: 0,
    maximum: 1,
    description:
      "Postgres `ts_rank` with normalisation 32 (rank / (rank + 1)), title words weighing more than body words; the scale of `answer_from_knowledge`'s threshold",
  })
  rank: number;
}
