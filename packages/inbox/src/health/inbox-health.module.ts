import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { InboxHealthIndicator } from './inbox-health.indicator';

/**
 * Provides InboxHealthIndicator to an app that has InboxModule (whose read-only ports it
 * injects) and a terminus health controller of its own.
 */
@Module({
  imports: [TerminusModule],
  providers: [InboxHealthIndicator],
  exports: [InboxHealthIndicator],
})
export class InboxHealthModule {}
