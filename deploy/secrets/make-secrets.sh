#!/bin/bash
# docker compose's `compose-secrets` one-shot: every secret the stack uses, generated on the
# first `docker compose up` and kept in the volume `secrets` (mounted at /secrets/master), then
# copied to the volume of each consumer as deploy/secrets/secrets.tsv lists (mounted at
# /secrets/<volume>), where the consumer mounts it at /run/secrets and reads it with
# `<NAME>_FILE`. Nothing secret is in the repository, in .env or in any container's environment.
# Runs again on every `up` and changes nothing that exists; `docker compose down -v` forgets them.
set -euo pipefail
umask 077
table="${1:-/etc/trading/secrets.tsv}"
root="${SECRETS_ROOT:-/secrets}"
master="$root/master"
while read -r volume file secret; do
  [[ -z "$volume" || "$volume" == \#* ]] && continue
  if [[ ! -s "$master/$secret" ]]; then
    # Hex: nothing in a SQL string, a JAAS line or an --add-scram argument needs quoting.
    openssl rand -hex 24 | tr -d '\n' >"$master/$secret.new"
    mv "$master/$secret.new" "$master/$secret"
  fi
  [[ -d "$root/$volume" ]] || { echo "compose-secrets: $root/$volume is not mounted" >&2; exit 1; }
  # Readable by the consumer's own user (the images run as different uids): the volume itself is
  # what only that consumer mounts.
  install -m 0444 "$master/$secret" "$root/$volume/$file"
done <"$table"
echo "compose-secrets: $(grep -cv '^\(#\|$\)' "$table") secret files in place"
