import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OkResponse } from '../../../infra/http/ok.response.js';
import { Public } from '../decorators/access.decorators.js';
import { RateLimit } from '../rate-limit/rate-limit.decorator.js';
import { ContactDto } from './contact.dto.js';
import { ContactService } from './contact.service.js';

// Lives in the auth module because it shares its public-route plumbing (rate limits).
@ApiTags('website')
@Controller('api/contact')
export class ContactController {
  constructor(private readonly contact: ContactService) {}

  @Public()
  @RateLimit('contact')
  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Website contact form (3 per minute per IP)' })
  @ApiOkResponse({ type: OkResponse })
  submit(@Body() body: ContactDto): { ok: true } {
    return this.contact.submit(body);
  }
}
