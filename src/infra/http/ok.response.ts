import { ApiProperty } from '@nestjs/swagger';

/** The answer of every simple successful action (interface.md section 2). */
export class OkResponse {
  @ApiProperty({ example: true })
  ok: true;
}
