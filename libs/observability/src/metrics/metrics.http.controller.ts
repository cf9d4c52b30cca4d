import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MetricsRegistry } from './metrics-registry';

/** `GET /metrics`: every metric of this app in the Prometheus text format. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsHttpController {
  constructor(private readonly registry: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
