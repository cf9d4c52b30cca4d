#!/bin/bash
# Runs once, when the MySQL container initialises its data directory (docker-entrypoint-initdb.d):
# one database and one user per service, each user granted its own database only, and a
# read-only user for the invariant checker and the demo's verdict. Passwords come from .env.
set -euo pipefail
sql=""
for pair in order_service:ORDER_DB_PASSWORD fulfillment_service:FULFILLMENT_DB_PASSWORD \
  accounting_service:ACCOUNTING_DB_PASSWORD coupon_provider:COUPON_DB_PASSWORD; do
  db="${pair%%:*}"
  variable="${pair##*:}"
  password="${!variable:?$variable is not set (see .env.example)}"
  sql+="CREATE DATABASE IF NOT EXISTS \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$db'@'%' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON \`$db\`.* TO '$db'@'%';
CREATE USER IF NOT EXISTS 'checker'@'%' IDENTIFIED BY '$CHECKER_DB_PASSWORD';
GRANT SELECT ON \`$db\`.* TO 'checker'@'%';
"
done
mysql --protocol=socket -uroot -p"$MYSQL_ROOT_PASSWORD" <<<"$sql"
