import {
  applyDecorators,
  BadRequestException,
  Controller,
  Get,
  Headers,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { OpsAudit, OpsAuditReader } from './ops-audit';
import { PeerProxy, PROXIED_SERVICES, ProxiedService } from './peer-proxy';

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
      summary:
        "A service's outbox, inbox or fulfillments route, called with the caller's credentials",
      description:
        "What the /ops page uses to reach the services: the request is passed on with the caller's own Authorization header, so the service authenticates the operator and its audit log names them. Only the services' /outbox, /inbox and /fulfillments routes.",
    }),
    ApiParam({ name: 'service', enum: PROXIED_SERVICES }),
    ApiParam({ name: 'path', description: "the peer's route", example: 'outbox/stats' }),
  );

/** The /ops page's own routes: its order lists, the merged audit log, and the services' APIs. */
@ApiTags('ops')
@Controller('ops')
export class OpsConsoleHttpController {
  constructor(
    private readonly audit: OpsAuditReader,
    private readonly proxy: PeerProxy,
  ) {}

  @Get('orders')
  @ApiOperation({
    summary: "The order-service's order lists (paid, stuck, failed, cancelled), newest first",
    description:
      "GET /orders of the order-service with the caller's query and credentials: `status`, `q` (the start of an order id), `stuckAfterMs`, `limit`.",
  })
  async recentOrders(
    @Req() request: ProxiedRequest,
    @Res() response: ProxiedResponse,
  ): Promise<void> {
    const question = request.originalUrl.indexOf('?');
    const answer = await this.proxy.forward({
      service: 'order-service',
      path: 'orders',
      method: 'GET',
      query: question === -1 ? '' : request.originalUrl.slice(question),
      body: undefined,
      authorization: authorizationOf(request),
    });
    response.status(answer.status).json(answer.body);
  }

  @Get('audit')
  @ApiOperation({
    summary: "Every service's operator actions: when, what, how many, why, who",
    description:
      "The audit logs of the order-service's outbox, the fulfillment-service's outbox and inbox and the accounting-service's inbox, merged newest first; a service that could not be read is listed under `unavailable`.",
  })
  @ApiOkResponse({ description: 'records newest first; services that could not be read' })
  auditLog(@Headers('authorization') authorization?: string): Promise<OpsAudit> {
    return this.audit.read(authorization);
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
    const answer = await this.proxy.forward({
      service: service as ProxiedService,
      path: joined,
      method: request.method,
      query: question === -1 ? '' : request.originalUrl.slice(question),
      body: request.body,
      authorization: authorizationOf(request),
    });
    response.status(answer.status).json(answer.body);
  }
}

function authorizationOf(request: ProxiedRequest): string | undefined {
  const authorization = request.headers.authorization;
  return typeof authorization === 'string' ? authorization : undefined;
}
