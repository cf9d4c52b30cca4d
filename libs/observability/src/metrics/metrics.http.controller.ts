import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { MetricsRegistry } from './metrics-registry';

/** `GET /metrics`: every metric of this app in the Prometheus text format (operator token). */
@ApiTags('metrics')
@Controller('metrics')
export class MetricsHttpController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format' })
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
