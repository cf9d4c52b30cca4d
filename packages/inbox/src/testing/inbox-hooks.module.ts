import { DynamicModule, Global, Module } from '@nestjs/common';
import { INBOX_HOOKS, InboxHooks } from '../transport/inbox-hooks';

/**
 * Hands InboxHooks to the app's InboxModule: import `InboxHooksModule.register(hooks)` beside
 * it in a test's module (or a benchmark's). Global, as InboxModule is, so either may come first.
 */
@Global()
@Module({})
export class InboxHooksModule {
  static register(hooks: InboxHooks): DynamicModule {
    return {
      module: InboxHooksModule,
      providers: [{ provide: INBOX_HOOKS, useValue: hooks }],
      exports: [INBOX_HOOKS],
    };
  }
}
