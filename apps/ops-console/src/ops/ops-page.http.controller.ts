import { Controller, Get, Header, Headers, NotFoundException, Param, Res } from '@nestjs/common';
import {
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import { PublicRoute } from '@app/observability';
import { DegradedRead } from '@outbox-inbox/messaging/http';
import { ConsoleAssets } from './console-assets';
import { CONSOLE_CSP } from './content-security-policy';
import { PipelineHealth, PipelineHealthReader } from './pipeline-health';

interface AssetResponse {
  setHeader(name: string, value: string): void;
  end(body: Buffer): void;
}

/** The operator's page, its style and scripts, and the pipeline health it shows. */
@ApiTags('ops')
@Controller('ops')
export class OpsPageHttpController {
  private readonly assets = ConsoleAssets.load();

  constructor(private readonly health: PipelineHealthReader) {}

  @Get()
  @ApiOperation({
    summary: 'The operator page (HTML)',
    description:
      "The /ops page: pipeline health, the lists and actions of every service, and an order's timeline across services. A browser asks for the operator token as Basic credentials (any user name).",
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the page; a browser asks for the operator token (Basic)' })
  @Header('cache-control', 'no-store')
  page(@Res() response: AssetResponse): void {
    this.send(response, 'ops.html');
  }

  /** The page's style sheet and ES modules: code, no data, so they need no token. */
  @PublicRoute()
  @Get('assets/:name')
  @ApiExcludeEndpoint()
  @Header('cache-control', 'no-cache')
  asset(@Param('name') name: string, @Res() response: AssetResponse): void {
    if (name.endsWith('.html')) throw new NotFoundException();
    this.send(response, name);
  }

  @Get('pipeline')
  @ApiOperation({
    summary: 'Pipeline health: outboxes, inboxes and dead letters of every service',
    description:
      "The services' outbox and inbox stats, each section `ok` or `unavailable` with the reason, as the /ops page shows them.",
  })
  @DegradedRead()
  @ApiOkResponse({ description: 'outbox backlog, oldest age and DEAD per service; DLQ counts' })
  pipeline(@Headers('authorization') authorization?: string): Promise<PipelineHealth> {
    return this.health.read(authorization);
  }

  private send(response: AssetResponse, name: string): void {
    const asset = this.assets.get(name);
    if (!asset) throw new NotFoundException(`no such file of the console: ${name}`);
    response.setHeader('content-type', asset.contentType);
    response.setHeader('content-security-policy', CONSOLE_CSP);
    response.setHeader('x-content-type-options', 'nosniff');
    response.end(asset.body);
  }
}
