import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { PHONE_PATTERN } from '../jid.js';

export const INVALID_PHONE = 'invalid phone number';

/**
 * A phone number field: the service checks it with `normalizePhone` (400 `invalid phone number`,
 * `null` and a missing number included), and the document states the canonical form it accepts.
 */
export const PhoneNumber = (options: { required?: boolean; description?: string } = {}): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      type: String,
      required: options.required ?? true,
      pattern: PHONE_PATTERN,
      example: '+15551234567',
      description:
        `${options.description ? `${options.description}. ` : ''}E.164 digits with or without \`+\`; spaces, dots, dashes and brackets are ` +
        `also accepted (\`+49 (151) 234-567\`, \`0049…\`); anything else (\`null\` too) is 400 \`${INVALID_PHONE}\``,
    }),
    Allow(),
  );
