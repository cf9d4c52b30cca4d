#!/usr/bin/env bash
# Installs the native addon of @confluentinc/kafka-javascript (librdkafka underneath), as the
# root's postinstall, so that a plain `npm ci` gets it.
#
# Why not the package's own install script (package.json's allowScripts denies it): that script,
# `node-pre-gyp install --fallback-to-build`, first downloads a prebuilt binary and, failing that,
# builds librdkafka statically from the sources of zlib, OpenSSL, zstd and curl that it downloads
# too. Neither download is reachable on every machine this project runs on. The package builds
# against the system's libraries instead only when CKJS_LINKING=dynamic is in the environment
# at install, and npm cannot set an environment variable for one dependency's script. So this
# runs that same step with it set: with internet access the prebuilt binary still comes first;
# without, librdkafka is built from the package's bundled source against the system's OpenSSL and
# zlib (SSL and SASL/SCRAM included), which takes about 3 minutes on two cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkg="$root/node_modules/@confluentinc/kafka-javascript"

# Not installed (npm ci --omit=...): nothing to do.
[ -f "$pkg/package.json" ] || exit 0
# Already built and loadable (a second npm install, or npm ci over an installed tree).
if (cd "$root" && node -e 'require("@confluentinc/kafka-javascript")') >/dev/null 2>&1; then
  exit 0
fi

pre_gyp="$(node -p 'require.resolve("@mapbox/node-pre-gyp/bin/node-pre-gyp", { paths: [process.argv[1]] })' "$pkg")"
echo "confluent-kafka: installing the native addon (prebuilt binary, else librdkafka from source against the system's libraries)"
started=$(date +%s)
# The client is an option (KAFKA_CLIENT=confluent); kafkajs, the default, needs none of this. A
# machine that cannot build it (no OpenSSL or zlib headers) still gets a working install, told
# what the confluent client needs; a service started with KAFKA_CLIENT=confluent then says the
# addon is missing.
unavailable() {
  echo "confluent-kafka: $1; KAFKA_CLIENT=confluent is unavailable until it builds" >&2
  echo "confluent-kafka: on Debian or Ubuntu: apt-get install libssl-dev zlib1g-dev, then bash scripts/install-confluent-kafka.sh" >&2
  exit 0
}
(cd "$pkg" && CKJS_LINKING=dynamic node "$pre_gyp" install --fallback-to-build) \
  || unavailable "the native addon did not build"
(cd "$root" && node -e 'require("@confluentinc/kafka-javascript")') >/dev/null 2>&1 \
  || unavailable "the addon was built but does not load"
echo "confluent-kafka: installed in $(($(date +%s) - started)) s"
