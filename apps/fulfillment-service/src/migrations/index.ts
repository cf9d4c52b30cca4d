import { InboxMigrations } from '@outbox-inbox/inbox';
import { OutboxMigrations } from '@outbox-inbox/outbox';
import { CreateFulfillmentTable1764700000100 } from './1764700000100-create-fulfillment-table';
import { CreateFulfillmentTransitionTable1764900000200 } from './1764900000200-create-fulfillment-transition-table';

/** Every migration of the fulfillment-service, in order; run by `main.js migrate` and the tests. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const FulfillmentMigrations: Function[] = [
  ...OutboxMigrations,
  ...InboxMigrations,
  CreateFulfillmentTable1764700000100,
  CreateFulfillmentTransitionTable1764900000200,
];
