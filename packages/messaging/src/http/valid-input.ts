import { BadRequestException, ValidationPipe } from '@nestjs/common';
import { FieldError, fieldErrorsOf } from '../validation';

/** A 400 whose body names every failing field: `{ statusCode, error, message, fieldErrors }`. */
export function invalidRequest(message: string, fieldErrors: FieldError[]): BadRequestException {
  return new BadRequestException({ statusCode: 400, error: 'Bad Request', message, fieldErrors });
}

/**
 * The validation of HTTP input, one instance for every route that takes any: unknown fields
 * rejected, values converted to the DTO's types, 400 with `fieldErrors` (invalidRequest). The
 * packages' controllers put it on their parameters, so they are safe in any app; a service
 * may also make it global (useGlobalPipes).
 */
export const validInput = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  transform: true,
  exceptionFactory: (errors) => invalidRequest('invalid request', fieldErrorsOf(errors)),
});
