import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { OutboxHealthIndicator } from './outbox-health.indicator';

/**
 * Provides OutboxHealthIndicator to an app that has OutboxModule (whose read-only ports it
 * injects) and a terminus health controller of its own.
 */
@Module({
  imports: [TerminusModule],
  providers: [OutboxHealthIndicator],
  exports: [OutboxHealthIndicator],
})
export class OutboxHealthModule {}
