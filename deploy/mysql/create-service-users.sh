#!/bin/bash
# Runs once, when the MariaDB container initialises its data directory (docker-entrypoint-initdb.d):
# the databases and users of deploy/mysql/service-users.sql (mounted at /etc/trading), the same
# file the stack and the tests apply, with no name prefix and the passwords from .env; then the
# read-only user of the invariant checker and the demo's verdict.
set -euo pipefail
# Its comments go: they name the placeholders.
sql="$(grep -v '^--' /etc/trading/service-users.sql)"
sql="${sql//'${PREFIX}'/}"
for variable in MIGRATOR_DB_PASSWORD ORDER_DB_PASSWORD FULFILLMENT_DB_PASSWORD \
  ACCOUNTING_DB_PASSWORD COUPON_DB_PASSWORD; do
  password="${!variable:?$variable is not set (see .env.example)}"
  # Inside a quoted SQL string: a backslash and a quote are escaped, as mysql2's escape() does.
  password="${password//\\/\\\\}"
  password="${password//\'/\\\'}"
  sql="${sql//"\${$variable}"/"$password"}"
done
if [[ "$sql" =~ \$\{[A-Z_]+\} ]]; then
  echo "service-users.sql: ${BASH_REMATCH[0]} has no value" >&2
  exit 1
fi
checker="${CHECKER_DB_PASSWORD:?CHECKER_DB_PASSWORD is not set (see .env.example)}"
checker="${checker//\\/\\\\}"
checker="${checker//\'/\\\'}"
sql+="
CREATE USER IF NOT EXISTS 'checker'@'%' IDENTIFIED BY '$checker';"
for db in order_service fulfillment_service accounting_service coupon_provider; do
  sql+="
GRANT SELECT ON \`$db\`.* TO 'checker'@'%';"
done
mysql --protocol=socket -uroot -p"$MYSQL_ROOT_PASSWORD" <<<"$sql"
