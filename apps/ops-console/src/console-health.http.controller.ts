import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PublicRoute } from '@app/observability';

/**
 * /health, /health/live and /health/ready of the console. It holds no database, consumer or
 * outbox: once it answers, it is ready; a service it reads that is down shows on its pages as
 * unavailable, not here.
 */
@ApiTags('health')
@PublicRoute()
@Controller('health')
export class ConsoleHealthHttpController {
  @Get(['', 'live', 'ready'])
  @ApiOperation({ summary: 'The console answers (it has nothing else to wait for)' })
  @ApiOkResponse({ description: '{ status: "ok" }' })
  check(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
