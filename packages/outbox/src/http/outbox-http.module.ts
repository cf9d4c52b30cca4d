import { CanActivate, DynamicModule, Module, Type } from '@nestjs/common';
import { operatorControllers } from '@outbox-inbox/messaging/http';
import { OutboxHttpController } from './outbox.http.controller';

/** Guards to put in front of the /outbox routes (beside the app's global guards). */
export interface OutboxHttpOptions {
  guards?: Array<Type<CanActivate> | CanActivate>;
}

/**
 * The /outbox operator endpoints (stats, DEAD rows, requeue, prune) over the OutboxOperations
 * of the app's OutboxModule. Import `OutboxHttpModule.register()` beside OutboxModule to mount
 * them; an app that does not imports neither the routes nor @nestjs/swagger.
 */
@Module({})
export class OutboxHttpModule {
  static register(options: OutboxHttpOptions = {}): DynamicModule {
    const routes = options.guards?.length ? { guards: options.guards } : true;
    return {
      module: OutboxHttpModule,
      controllers: operatorControllers([OutboxHttpController], routes),
    };
  }
}
