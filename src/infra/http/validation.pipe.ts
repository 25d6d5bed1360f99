import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from './api-error.js';

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) =>
      text.startsWith(error.property) ? (parent ? `${parent}.${text}` : text) : `${path}: ${text}`,
    );
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

/**
 * Global DTO validation: unknown fields are stripped (never rejected), values are converted to
 * the DTO's types, and failures are a 400 with every problem in one readable sentence.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // A field with several rules sharing one message (`events`) says it once.
    exceptionFactory: (errors) => ApiError.badRequest([...new Set(flatten(errors))].join('; ') || 'invalid request body'),
  });
}
