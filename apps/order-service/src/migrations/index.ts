/** Every migration of the order-service, in order; run by `main.js migrate` and the test harness. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const OrderMigrations: Function[] = [];
