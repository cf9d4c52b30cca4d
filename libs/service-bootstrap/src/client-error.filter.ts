import { ArgumentsHost, Catch, HttpException } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';

/**
 * Answers body-parser's client errors (413 too large, 400 malformed JSON, 415 charset) as the
 * plain 4xx they are; Nest's default handler would log them with a stack as server errors.
 * Everything else goes to Nest's handler (JSON without stack; unknown errors → 500).
 */
@Catch()
export class ClientErrorFilter extends BaseExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    const candidate = exception as { status?: unknown; type?: unknown; message?: unknown };
    const status = typeof candidate.status === 'number' ? candidate.status : 0;
    if (!(exception instanceof HttpException) && typeof candidate.type === 'string') {
      if (status >= 400 && status < 500) {
        const message = status === 413 ? 'request body too large' : String(candidate.message);
        return super.catch(new HttpException(message, status), host);
      }
    }
    return super.catch(exception, host);
  }
}
