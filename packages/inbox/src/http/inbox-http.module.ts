import { CanActivate, DynamicModule, Module, Type } from '@nestjs/common';
import { operatorControllers } from '@outbox-inbox/messaging/http';
import { InboxHttpController } from './inbox.http.controller';

/** Guards to put in front of the /inbox routes (beside the app's global guards). */
export interface InboxHttpOptions {
  guards?: Array<Type<CanActivate> | CanActivate>;
}

/**
 * The /inbox operator endpoints (stats, deliveries, dead letters, replay, gap skip, prune) over
 * the InboxOperations and InboxDeadLetters of the app's InboxModule. Import
 * `InboxHttpModule.register()` beside InboxModule to mount them; an app that does not imports
 * neither the routes nor @nestjs/swagger.
 */
@Module({})
export class InboxHttpModule {
  static register(options: InboxHttpOptions = {}): DynamicModule {
    const routes = options.guards?.length ? { guards: options.guards } : true;
    return {
      module: InboxHttpModule,
      controllers: operatorControllers([InboxHttpController], routes),
    };
  }
}
