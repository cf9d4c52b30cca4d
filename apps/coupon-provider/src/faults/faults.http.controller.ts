import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { FaultApiSwitch } from './fault-api-switch.guard';
import { FaultCounters, FaultInjector, FaultSettings } from './fault-injector';
import { UpdateFaultsDto } from './faults.dto';

/** Switches the simulated provider's faults at run time (tests and the demo), when enabled. */
@ApiTags('faults')
@Controller('faults')
@UseGuards(FaultApiSwitch)
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
