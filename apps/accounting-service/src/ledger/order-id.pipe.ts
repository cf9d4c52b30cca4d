import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

const ORDER_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Accepts an order id as the events carry it (1–32 letters, digits, `_` or `-`); else 400. */
@Injectable()
export class OrderIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!ORDER_ID.test(value)) {
      const rule = 'orderId must be 1-32 letters, digits, "_" or "-"';
      throw new BadRequestException({
        statusCode: 400,
        error: 'Bad Request',
        code: 'ORDER_ID_INVALID',
        message: rule,
        fieldErrors: [{ path: 'orderId', constraints: { matches: rule } }],
      });
    }
    return value;
  }
}
