import { Controller, Get, Header, Headers } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags, ApiOperation } from '@nestjs/swagger';
import { OPS_PAGE_HTML } from './ops-page.html';
import { PipelineHealth, PipelineHealthReader } from './pipeline-health';
import { DegradedRead } from '@outbox-inbox/messaging/http';

/** The operator's page and the pipeline health it shows. */
@ApiTags('ops')
@Controller('ops')
export class OpsPageHttpController {
  constructor(private readonly health: PipelineHealthReader) {}

  @Get()
  @ApiOperation({
    summary: 'The operator page (HTML)',
    description:
      "The /ops page: pipeline health and an order's timeline across services. A browser asks for the operator token as Basic credentials (any user name).",
  })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the page; a browser asks for the operator token (Basic)' })
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  page(): string {
    return OPS_PAGE_HTML;
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
}
