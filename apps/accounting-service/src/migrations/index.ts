/** Every migration of the accounting-service, in order; run by `main.js migrate` and the test harness. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const AccountingMigrations: Function[] = [];
