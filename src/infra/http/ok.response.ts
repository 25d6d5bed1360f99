import { ApiProperty } from '@nestjs/swagger';

/** The answer of every simple successful action (docs/api.md#basics). */
export class OkResponse {
  @ApiProperty({ example: true })
  ok: true;
}
