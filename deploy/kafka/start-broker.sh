#!/bin/bash
# docker compose's broker, instead of the apache/kafka image's own start (which formats the
# storage without SCRAM users, and KRaft can only take the first ones at format time):
#  1. server.properties from the KAFKA_* variables, by the image's convention (KAFKA_ dropped,
#     lower case, `_` -> `.`, `__` -> `_`, `___` -> `-`), with each `@secret:NAME@` replaced by
#     the file NAME of $SCRAM_USERS_DIR: the JAAS lines name the admin's password so, and the
#     environment holds no secret;
#  2. the storage formatted once, with one SCRAM-SHA-512 user per file of $SCRAM_USERS_DIR
#     (the file's name is the principal, its content the password), as the test kit's
#     `kafka:start --secure` does;
#  3. a client config for the admin (the health check, and `docker compose exec kafka ...`);
#  4. the broker.
set -euo pipefail
users="${SCRAM_USERS_DIR:?SCRAM_USERS_DIR is not set}"
home="${KAFKA_HOME:-/opt/kafka}"
config="${BROKER_CONFIG_DIR:-$home/config}"
umask 077

properties=""
while IFS='=' read -r name value; do
  case "$name" in
    # Read by kafka-run-class.sh itself, not broker settings.
    KAFKA_HEAP_OPTS | KAFKA_OPTS | KAFKA_JMX_OPTS | KAFKA_LOG4J_OPTS | KAFKA_JVM_PERFORMANCE_OPTS | \
      KAFKA_GC_LOG_OPTS | KAFKA_DEBUG | KAFKA_HOME | KAFKA_VERSION) continue ;;
  esac
  key="${name#KAFKA_}"
  key="${key,,}"
  key="${key//___/-}"
  key="${key//__/$'\x01'}"
  key="${key//_/.}"
  key="${key//$'\x01'/_}"
  properties+="$key=$value"$'\n'
done < <(env | grep '^KAFKA_' | sort)

scram=()
for file in "$users"/*; do
  principal="$(basename "$file")"
  password="$(cat "$file")"
  [[ "$password" =~ ^[A-Za-z0-9._-]+$ ]] || { echo "start-broker: $file is not a plain password" >&2; exit 1; }
  properties="${properties//"@secret:$principal@"/"$password"}"
  scram+=(--add-scram "SCRAM-SHA-512=[name=$principal,password=$password]")
done
if [[ "$properties" =~ @secret:[^@]*@ ]]; then
  echo "start-broker: ${BASH_REMATCH[0]} has no file in $users" >&2
  exit 1
fi
printf '%s' "$properties" >"$config/server.properties"

# Formatted once: a restarted container keeps its storage, its cluster id, its users and their
# passwords (formatting again, with a new cluster id, would stop the broker).
data="${KAFKA_LOG_DIRS:?KAFKA_LOG_DIRS is not set}"
if [[ ! -f "${data%%,*}/meta.properties" ]]; then
  "$home/bin/kafka-storage.sh" format \
    --cluster-id "${CLUSTER_ID:-$("$home/bin/kafka-storage.sh" random-uuid)}" \
    --config "$config/server.properties" "${scram[@]}"
fi

cat >"$config/admin-client.properties" <<PROPERTIES
security.protocol=SASL_SSL
sasl.mechanism=SCRAM-SHA-512
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="$(cat "$users/admin")";
ssl.truststore.type=PEM
ssl.truststore.location=${KAFKA_SSL_TRUSTSTORE_LOCATION:?}
PROPERTIES

exec "$home/bin/kafka-server-start.sh" "$config/server.properties"
