import { BadRequestException, Injectable, PipeTransform } from '@nestjs/common';

const ORDER_ID = /^[A-Za-z0-9_-]{1,32}$/;

/** Accepts an order id as the events carry it (1–32 letters, digits, `_` or `-`); else 400. */
@Injectable()
export class OrderIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!ORDER_ID.test(value)) {
      throw new BadRequestException({
        code: 'ORDER_ID_INVALID',
        message: 'orderId must be 1-32 letters, digits, "_" or "-"',
      });
    }
    return value;
  }
}
