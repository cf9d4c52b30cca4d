import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { OPS_PAGE_HTML } from './ops-page.html';
import { PipelineHealth, PipelineHealthReader } from './pipeline-health';
import { DegradedRead } from '@outbox-inbox/messaging';

/** The operator's page and the pipeline health it shows. */
@ApiTags('ops')
@Controller('ops')
export class OpsPageHttpController {
  constructor(private readonly health: PipelineHealthReader) {}

  @Get()
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'the page; a browser asks for the operator token (Basic)' })
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('cache-control', 'no-store')
  page(): string {
    return OPS_PAGE_HTML;
  }

  @Get('pipeline')
  @DegradedRead()
  @ApiOkResponse({ description: 'outbox backlog, oldest age and DEAD per service; DLQ counts' })
  pipeline(): Promise<PipelineHealth> {
    return this.health.read();
  }
}
