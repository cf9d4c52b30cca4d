import { OutboxMigrations } from '@outbox-inbox/outbox';
import { CreateOrderTables1764800000000 } from './1764800000000-create-order-tables';
import { CreateOrderTransitionTable1764900000100 } from './1764900000100-create-order-transition-table';
import { AddPayNotificationDecision1765000000100 } from './1765000000100-add-pay-notification-decision';
import { CreatePayCallbackTable1765400000100 } from './1765400000100-create-pay-callback-table';

/** Every migration of the order-service, in order; run by `main.js migrate` and the test harness. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const OrderMigrations: Function[] = [
  ...OutboxMigrations,
  CreateOrderTables1764800000000,
  CreateOrderTransitionTable1764900000100,
  AddPayNotificationDecision1765000000100,
  CreatePayCallbackTable1765400000100,
];
