import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FaultCounters, FaultInjector, FaultSettings } from './fault-injector';
import { UpdateFaultsDto } from './faults.dto';

/** Switches the simulated provider's faults at run time (tests and the demo). */
@ApiTags('faults')
@Controller('faults')
export class FaultsHttpController {
  constructor(private readonly faults: FaultInjector) {}

  @Get()
  @ApiOkResponse({ description: 'current settings and what was injected so far' })
  current(): FaultSettings & FaultCounters {
    return this.faults.current();
  }

  @Put()
  @ApiOkResponse({ description: 'the settings after the update' })
  update(@Body() changes: UpdateFaultsDto): FaultSettings & FaultCounters {
    return this.faults.update(changes);
  }
}
