import {
  Body,
  ConflictException,
  Controller,
  Get,
  Headers,
  HttpCode,
  NotFoundException,
  Param,
  Post,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { PublicRoute } from '@app/observability';
import { invalidRequest } from '@outbox-inbox/messaging/http';
import { CancelOrderDto, CreateOrderDto } from './order.dto';
import { Order } from './domain/order';
import { OrderCommandResult, OrdersService } from './orders.service';
import { OrderView, toOrderView } from './order.view';

const ORDER_ID = /^[1-9]\d{0,18}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,128}$/;

/** HTTP in, views out: maps the service's result values to status codes. The customer API. */
@ApiTags('orders')
@PublicRoute()
@Controller('orders')
export class OrdersHttpController {
  constructor(private readonly orders: OrdersService) {}

  @Post()
  @HttpCode(201)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'retries with the same key get the first response; another body → 422',
  })
  @ApiCreatedResponse({ type: OrderView })
  @ApiBadRequestResponse({ description: 'invalid body (fieldErrors) or Idempotency-Key' })
  @ApiUnprocessableEntityResponse({ description: 'Idempotency-Key reused with another body' })
  @ApiPayloadTooLargeResponse({ description: 'body over the size limit' })
  async create(
    @Body() body: CreateOrderDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<OrderView> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw invalidRequest('invalid Idempotency-Key', [
        {
          path: 'Idempotency-Key',
          constraints: { matches: 'must be 1 to 128 printable ASCII characters' },
        },
      ]);
    }
    const result = await this.orders.create(body, idempotencyKey);
    if (result.kind === 'key-reused') {
      throw new UnprocessableEntityException('Idempotency-Key was already used with another body');
    }
    return result.body;
  }

  @Post(':id/pay')
  @HttpCode(200)
  @ApiOkResponse({ type: OrderView, description: 'PAYING with its payOrderId' })
  @ApiNotFoundResponse()
  @ApiConflictResponse({ description: 'the order is PAID or CANCELLED' })
  async pay(@Param('id') id: string): Promise<OrderView> {
    return viewOf(ORDER_ID.test(id) ? await this.orders.startPayment(id) : { kind: 'not-found' });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOkResponse({ type: OrderView, description: 'CANCELLED' })
  @ApiNotFoundResponse()
  @ApiConflictResponse({ description: 'the order is PAID' })
  async cancel(@Param('id') id: string, @Body() body: CancelOrderDto): Promise<OrderView> {
    const reason = body.reason ?? 'cancelled on request';
    return viewOf(ORDER_ID.test(id) ? await this.orders.cancel(id, reason) : { kind: 'not-found' });
  }

  @Get(':id')
  @ApiOkResponse({ type: OrderView })
  @ApiNotFoundResponse()
  async get(@Param('id') id: string): Promise<OrderView> {
    const order: Order | undefined = ORDER_ID.test(id) ? await this.orders.find(id) : undefined;
    return viewOf(order ? { kind: 'done', order } : { kind: 'not-found' });
  }
}

function viewOf(result: OrderCommandResult): OrderView {
  switch (result.kind) {
    case 'done':
      return toOrderView(result.order);
    case 'not-found':
      throw new NotFoundException('order not found');
    case 'rejected':
      throw new ConflictException(result.rejection.message);
  }
}
