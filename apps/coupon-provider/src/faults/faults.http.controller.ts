import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
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
  @ApiOperation({
    summary: "The simulated provider's fault settings, and what it injected so far",
    description: 'Only when the fault API is enabled (tests and the demo).',
  })
  @ApiOkResponse({ description: 'current settings and what was injected so far' })
  current(): FaultSettings & FaultCounters {
    return this.faults.current();
  }

  @Put()
  @ApiOperation({
    summary: "Change the simulated provider's faults at run time",
    description:
      'Only when the fault API is enabled (tests and the demo). Answers the settings after the update.',
  })
  @ApiOkResponse({ description: 'the settings after the update' })
  update(@Body() changes: UpdateFaultsDto): FaultSettings & FaultCounters {
    return this.faults.update(changes);
  }
}
