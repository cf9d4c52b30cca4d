import {
  applyDecorators,
  BadRequestException,
  Controller,
  Get,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OpsAudit, OpsAuditReader } from './ops-audit';
import { PeerProxy, PROXIED_SERVICES, ProxiedService } from './peer-proxy';
import { RecentOrder, RecentOrdersReader } from './recent-orders';
import { RecentOrdersQuery } from './recent-orders.dto';

interface ProxiedRequest {
  method: string;
  originalUrl: string;
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}
interface ProxiedResponse {
  status(code: number): { json(body: unknown): void };
}

/** The Swagger description of the peer proxy's two routes. */
const PeerRouteDocs = () =>
  applyDecorators(
    ApiOperation({
      summary: "A peer's outbox, inbox or fulfillments route, called with the caller's credentials",
      description:
        "What the /ops console uses to reach the fulfillment and accounting services: the request is passed on with the caller's own Authorization header, so the peer authenticates the operator and its audit log names them. Only the peers' /outbox, /inbox and /fulfillments routes.",
    }),
    ApiParam({ name: 'service', enum: PROXIED_SERVICES }),
    ApiParam({ name: 'path', description: "the peer's route", example: 'outbox/stats' }),
  );

/** The /ops console's own routes: its order lists, the merged audit log, and its peers' APIs. */
@ApiTags('ops')
@Controller('ops')
export class OpsConsoleHttpController {
  constructor(
    private readonly orders: RecentOrdersReader,
    private readonly audit: OpsAuditReader,
    private readonly proxy: PeerProxy,
  ) {}

  @Get('orders')
  @ApiOperation({
    summary: 'Recent orders by list (paid, stuck, failed, cancelled), newest first',
    description:
      '`stuck`: CREATED or PAYING, unchanged for longer than `stuckAfterMs`; `failed`: PAYMENT_FAILED. `q` matches the start of the order id. Ordered by last change, newest first.',
  })
  recentOrders(@Query() query: RecentOrdersQuery): Promise<RecentOrder[]> {
    return this.orders.list(query);
  }

  @Get('audit')
  @ApiOperation({
    summary: "Every service's operator actions: when, what, how many, why, who",
    description:
      "The audit logs of the order-service's outbox, the fulfillment-service's outbox and inbox and the accounting-service's inbox, merged newest first; a service that could not be read is listed under `unavailable`.",
  })
  @ApiOkResponse({ description: 'records newest first; services that could not be read' })
  auditLog(): Promise<OpsAudit> {
    return this.audit.read();
  }

  // GET and POST only: the console reads lists and sends actions; nothing else is passed on.
  @Get('services/:service/*path')
  @PeerRouteDocs()
  peerRead(
    @Param('service') service: string,
    @Param('path') path: string[] | string,
    @Req() request: ProxiedRequest,
    @Res() response: ProxiedResponse,
  ): Promise<void> {
    return this.peer(service, path, request, response);
  }

  @Post('services/:service/*path')
  @PeerRouteDocs()
  peerAction(
    @Param('service') service: string,
    @Param('path') path: string[] | string,
    @Req() request: ProxiedRequest,
    @Res() response: ProxiedResponse,
  ): Promise<void> {
    return this.peer(service, path, request, response);
  }

  private async peer(
    service: string,
    path: string[] | string,
    request: ProxiedRequest,
    response: ProxiedResponse,
  ): Promise<void> {
    const joined = Array.isArray(path) ? path.join('/') : path;
    if (!PROXIED_SERVICES.includes(service as ProxiedService) || !PeerProxy.allows(joined)) {
      throw new BadRequestException(`not an operator route of a peer: ${service}/${joined}`);
    }
    const question = request.originalUrl.indexOf('?');
    const authorization = request.headers.authorization;
    const answer = await this.proxy.forward({
      service: service as ProxiedService,
      path: joined,
      method: request.method,
      query: question === -1 ? '' : request.originalUrl.slice(question),
      body: request.body,
      authorization: typeof authorization === 'string' ? authorization : undefined,
    });
    response.status(answer.status).json(answer.body);
  }
}
