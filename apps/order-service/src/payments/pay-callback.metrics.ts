import { Injectable } from '@nestjs/common';
import { MetricsRegistry } from '@app/observability';
import { Counter } from 'prom-client';
import { PayCallbackVerdict } from './pay-callback-outcome';

/**
 * How a callback ended, as `pay_callbacks_total` counts it: a verdict of a verified callback,
 * or one that no timeline shows (an unknown order, a body that is not a notification, a
 * signature that did not verify).
 */
export type PayCallbackCount = PayCallbackVerdict | 'unknown_order' | 'invalid' | 'bad_signature';

/** `pay_callbacks_total{outcome}`: the only trace a callback with a bad signature leaves. */
@Injectable()
export class PayCallbackMetrics {
  private readonly callbacks: Counter<'outcome'>;

  constructor(registry: MetricsRegistry) {
    this.callbacks = new Counter({
      name: 'pay_callbacks_total',
      help:
        'Payment callbacks answered, by outcome: accepted, duplicate, late (signed by the ' +
        'provider outside the window, 401), refused (404/409/422), unknown_order, invalid ' +
        '(400), bad_signature (401: missing, malformed or forged; tied to no order)',
      labelNames: ['outcome'],
      registers: [registry],
    });
  }

  count(outcome: PayCallbackCount): void {
    this.callbacks.inc({ outcome });
  }
}
