import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags, ApiOperation } from '@nestjs/swagger';
import { MetricsRegistry } from './metrics-registry';

/** `GET /metrics`: every metric of this app in the Prometheus text format (operator token). */
@ApiTags('metrics')
@Controller('metrics')
export class MetricsHttpController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @ApiOperation({
    summary: 'Every metric of this service, in the Prometheus text format',
    description:
      'HTTP, outbox, inbox, broker and process metrics, for Prometheus to scrape with the operator token.',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format' })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
