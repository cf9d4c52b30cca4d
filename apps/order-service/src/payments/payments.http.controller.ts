import { IncomingMessage } from 'node:http';
import {
  ConflictException,
  Controller,
  HttpCode,
  Inject,
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
import { invalidRequest } from '@app/service-bootstrap';
import { PayCallbackAnswer, PayCallbackDto } from './pay-callback.dto';
import { PayCallbackService } from './pay-callback.service';
import { PayCallbackHeader, verifyPayCallbackSignature } from './pay-callback.signature';

/** Injection token of the callback HMAC secret (PAY_CALLBACK_SECRET). */
export const PAY_CALLBACK_SECRET = Symbol('PAY_CALLBACK_SECRET');

/** The path whose body configureHttp keeps as raw bytes. */
export const PAY_CALLBACK_PATH = '/payments/callback';

/**
 * The payment provider's callback. Order of checks: signature and timestamp on the raw bytes
 * (401), then JSON and fields (400), then the order (404/422/409); 200 only after the commit.
 */
@ApiTags('payments')
@PublicRoute() // the provider signs every callback instead
@Controller('payments')
export class PaymentsHttpController {
  constructor(
    private readonly callbacks: PayCallbackService,
    @Inject(PAY_CALLBACK_SECRET) private readonly secret: string,
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
    const verdict = verifyPayCallbackSignature({
      secret: this.secret,
      timestamp: req.headers[PayCallbackHeader.timestamp],
      signature: req.headers[PayCallbackHeader.signature],
      rawBody,
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    if (!verdict.ok) throw new UnauthorizedException(`callback rejected: ${verdict.reason}`);

    let plain: unknown;
    try {
      plain = JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw invalidRequest('body is not valid JSON', [
        { path: '(root)', constraints: { isJson: 'must be a JSON object' } },
      ]);
    }
    const { value, errors } = validatePlain(PayCallbackDto, plain);
    if (errors.length > 0) throw invalidRequest('invalid pay callback', errors);

    const outcome = await this.callbacks.handle(value);
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
}
