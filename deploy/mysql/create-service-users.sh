#!/bin/bash
# Runs once, when the MariaDB container initialises its data directory (docker-entrypoint-initdb.d):
# the databases and users of deploy/mysql/service-users.sql (mounted at /etc/trading), the same
# file the stack and the tests apply, with no name prefix and each user's password read from its
# file in $SERVICE_USER_PASSWORDS_DIR (named after the user; compose-secrets writes them); then
# the read-only user of the invariant checker and the demo's verdict.
set -euo pipefail
dir="${SERVICE_USER_PASSWORDS_DIR:?SERVICE_USER_PASSWORDS_DIR is not set (see docker-compose.yml)}"
# A password from its file, escaped for a quoted SQL string as mysql2's escape() does.
password_of() {
  local password
  password="$(cat "$dir/$1")" || { echo "no password file $dir/$1" >&2; exit 1; }
  [[ -n "$password" ]] || { echo "$dir/$1 is empty" >&2; exit 1; }
  password="${password//\\/\\\\}"
  printf '%s' "${password//\'/\\\'}"
}
# Its comments go: they name the placeholders.
sql="$(grep -v '^--' /etc/trading/service-users.sql)"
sql="${sql//'${PREFIX}'/}"
# Each placeholder of the file, and the user whose password it is.
declare -A users=(
  [MIGRATOR_DB_PASSWORD]=migrator
  [ORDER_DB_PASSWORD]=order_service
  [FULFILLMENT_DB_PASSWORD]=fulfillment_service
  [ACCOUNTING_DB_PASSWORD]=accounting_service
  [COUPON_DB_PASSWORD]=coupon_provider
)
for variable in "${!users[@]}"; do
  password="$(password_of "${users[$variable]}")"
  sql="${sql//"\${$variable}"/"$password"}"
done
if [[ "$sql" =~ \$\{[A-Z_]+\} ]]; then
  echo "service-users.sql: ${BASH_REMATCH[0]} has no value" >&2
  exit 1
fi
sql+="
CREATE USER IF NOT EXISTS 'checker'@'%' IDENTIFIED BY '$(password_of checker)';"
for db in order_service fulfillment_service accounting_service coupon_provider; do
  sql+="
GRANT SELECT ON \`$db\`.* TO 'checker'@'%';"
done
mysql --protocol=socket -uroot -p"$(cat "$dir/root_password")" <<<"$sql"
