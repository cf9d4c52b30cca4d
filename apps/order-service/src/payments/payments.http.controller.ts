import { IncomingMessage } from 'node:http';
import {
  BadRequestException,
  ConflictException,
  Controller,
  HttpCode,
  Inject,
  Logger,
  NotFoundException,
  Post,
  Req,
  UnauthorizedException,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { PublicRoute } from '@app/observability';
import { validatePlain } from '@outbox-inbox/messaging';
import { invalidRequest } from '@outbox-inbox/messaging/http';
import { verdictOf } from './pay-callback-outcome';
import { PayCallbackAnswer, PayCallbackDto } from './pay-callback.dto';
import { PayCallbackMetrics } from './pay-callback.metrics';
import { PayCallbackService } from './pay-callback.service';
import { PayCallbackHeader, verifyPayCallbackSignature } from './pay-callback.signature';

/**
 * Injection token of the callback HMAC secrets in force: PAY_CALLBACK_SECRET, then
 * PAY_CALLBACK_SECRET_PREVIOUS while a rotation is under way.
 */
export const PAY_CALLBACK_SECRETS = Symbol('PAY_CALLBACK_SECRETS');

/** The path whose body configureHttp keeps as raw bytes. */
export const PAY_CALLBACK_PATH = '/payments/callback';

/**
 * The payment provider's callback. Order of checks: signature and timestamp on the raw bytes
 * (401), then JSON and fields (400), then the order (404/422/409); 200 only after the commit.
 * Every callback is counted (pay_callbacks_total); one the provider signed is also recorded on
 * its order's timeline, a late one included. A bad signature is tied to no order.
 */
@ApiTags('payments')
@PublicRoute() // the provider signs every callback instead
@Controller('payments')
export class PaymentsHttpController {
  private readonly logger = new Logger(PaymentsHttpController.name);

  constructor(
    private readonly callbacks: PayCallbackService,
    private readonly metrics: PayCallbackMetrics,
    @Inject(PAY_CALLBACK_SECRETS) private readonly secrets: readonly string[],
  ) {}

  @Post('callback')
  @HttpCode(200)
  @ApiHeader({ name: 'X-Pay-Timestamp', required: true, description: 'unix seconds, ±300 s' })
  @ApiHeader({
    name: 'X-Pay-Signature',
    required: true,
    description: 'hex HMAC-SHA256 over "<timestamp>.<raw body bytes>"',
  })
  @ApiBody({ type: PayCallbackDto })
  @ApiOkResponse({ type: PayCallbackAnswer, description: 'processed now or before' })
  @ApiUnauthorizedResponse({ description: 'bad signature or timestamp outside ±300 s' })
  @ApiBadRequestResponse({ description: 'malformed JSON or invalid fields (fieldErrors)' })
  @ApiNotFoundResponse({ description: 'unknown order or payOrderId' })
  @ApiUnprocessableEntityResponse({
    description:
      'amount or currency differ from the order, or a processed notifyId came back with another ' +
      'order, payment, amount, currency or status',
  })
  @ApiConflictResponse({ description: 'the order cannot take this verdict' })
  @ApiPayloadTooLargeResponse()
  async callback(@Req() req: IncomingMessage & { body?: unknown }): Promise<PayCallbackAnswer> {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const signature = verifyPayCallbackSignature({
      secrets: this.secrets,
      timestamp: req.headers[PayCallbackHeader.timestamp],
      signature: req.headers[PayCallbackHeader.signature],
      rawBody,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    if (!signature.ok) {
      if (signature.reason === 'STALE_TIMESTAMP') {
        await this.late(rawBody, signature.signedAt);
      } else {
        this.metrics.count('bad_signature'); // tied to no order: counted, never shown
      }
      throw new UnauthorizedException(`callback rejected: ${signature.reason}`);
    }

    const read = readNotification(rawBody);
    if (!read.ok) {
      this.metrics.count('invalid');
      throw read.error;
    }
    const outcome = await this.callbacks.handle(read.notice, new Date(signature.signedAt * 1000));
    this.metrics.count(verdictOf(outcome)?.verdict ?? 'unknown_order');
    switch (outcome.kind) {
      case 'accepted':
        return outcome.answer;
      case 'unknown-order':
        throw new NotFoundException('unknown order');
      case 'unknown-payment':
        throw new NotFoundException('unknown payOrderId for this order');
      case 'mismatch':
        throw new UnprocessableEntityException(outcome.message);
      case 'conflict':
        throw new ConflictException(outcome.message);
    }
  }

  /** A late copy the provider signed: shown on its order's timeline when it reads as one. */
  private async late(rawBody: Buffer, signedAtSeconds: number): Promise<void> {
    this.metrics.count('late');
    const read = readNotification(rawBody);
    if (!read.ok) return;
    try {
      await this.callbacks.recordLate(read.notice, new Date(signedAtSeconds * 1000));
    } catch (error) {
      // Refused with 401 either way, as before: during a database outage the record is what
      // is lost, and the log says so, rather than the answer turning into a 500.
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`late pay callback ${read.notice.notifyId} not recorded: ${reason}`);
    }
  }
}

/** The body as a notification, or the 400 it deserves. */
function readNotification(
  rawBody: Buffer,
): { ok: true; notice: PayCallbackDto } | { ok: false; error: BadRequestException } {
  let plain: unknown;
  try {
    plain = JSON.parse(rawBody.toString('utf8'));
  } catch {
    const error = invalidRequest('body is not valid JSON', [
      { path: '(root)', constraints: { isJson: 'must be a JSON object' } },
    ]);
    return { ok: false, error };
  }
  const { value, errors } = validatePlain(PayCallbackDto, plain);
  if (errors.length > 0)
    return { ok: false, error: invalidRequest('invalid pay callback', errors) };
  return { ok: true, notice: value };
}
