-- The services' databases and database users, least privilege (docs/operations.md, "Database
-- users and grants"). One file for every deployment, so that what compose, the stack, the demo
-- and the tests run cannot drift apart: deploy/mysql/create-service-users.sh applies it when the
-- compose MariaDB starts empty; scripts/stack/service-database-users.ts applies it (with a
-- per-run ${PREFIX}) for `npm run stack`, the demo and the tests, and drops the users afterwards.
-- ${NAME} is replaced before it runs: ${PREFIX} by a name prefix ('' in compose), each
-- ${..._PASSWORD} by that password, escaped for a quoted string. Apply it as root (or a user
-- allowed to create users); it may run again: every user is made afresh.
--
-- Two kinds of user:
-- - ${PREFIX}migrator owns the schema: `main.js migrate` connects as it (DATABASE_MIGRATE_URL),
--   creates and alters the tables, and exits. Nothing else ever uses it.
-- - one user per service (DATABASE_URL), with the statements that service runs on its own
--   database and no more: no CREATE, ALTER, DROP, INDEX or GRANT, nothing on another database.

CREATE DATABASE IF NOT EXISTS `${PREFIX}order_service` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS `${PREFIX}fulfillment_service` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS `${PREFIX}accounting_service` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE IF NOT EXISTS `${PREFIX}coupon_provider` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- The schema owner: every privilege on the four databases but GRANT OPTION.
DROP USER IF EXISTS '${PREFIX}migrator'@'%';
CREATE USER '${PREFIX}migrator'@'%' IDENTIFIED BY '${MIGRATOR_DB_PASSWORD}';
GRANT ALL PRIVILEGES ON `${PREFIX}order_service`.* TO '${PREFIX}migrator'@'%';
GRANT ALL PRIVILEGES ON `${PREFIX}fulfillment_service`.* TO '${PREFIX}migrator'@'%';
GRANT ALL PRIVILEGES ON `${PREFIX}accounting_service`.* TO '${PREFIX}migrator'@'%';
GRANT ALL PRIVILEGES ON `${PREFIX}coupon_provider`.* TO '${PREFIX}migrator'@'%';

-- Orders, pay callbacks, the operator audit, the outbox. DELETE: outbox retention prunes
-- t_outbox (OutboxOperations.pruneSent).
DROP USER IF EXISTS '${PREFIX}order_service'@'%';
CREATE USER '${PREFIX}order_service'@'%' IDENTIFIED BY '${ORDER_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE ON `${PREFIX}order_service`.* TO '${PREFIX}order_service'@'%';

-- Fulfillments, the inbox and the outbox. DELETE: outbox retention, inbox pruning and parked
-- events leaving t_inbox_parked.
DROP USER IF EXISTS '${PREFIX}fulfillment_service'@'%';
CREATE USER '${PREFIX}fulfillment_service'@'%' IDENTIFIED BY '${FULFILLMENT_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE ON `${PREFIX}fulfillment_service`.* TO '${PREFIX}fulfillment_service'@'%';

-- The ledger and the inbox. DELETE: inbox pruning and parked events leaving t_inbox_parked.
DROP USER IF EXISTS '${PREFIX}accounting_service'@'%';
CREATE USER '${PREFIX}accounting_service'@'%' IDENTIFIED BY '${ACCOUNTING_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE ON `${PREFIX}accounting_service`.* TO '${PREFIX}accounting_service'@'%';

-- Coupons: granted and updated, never deleted.
DROP USER IF EXISTS '${PREFIX}coupon_provider'@'%';
CREATE USER '${PREFIX}coupon_provider'@'%' IDENTIFIED BY '${COUPON_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE ON `${PREFIX}coupon_provider`.* TO '${PREFIX}coupon_provider'@'%';
