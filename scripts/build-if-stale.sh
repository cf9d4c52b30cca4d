#!/usr/bin/env bash
# What `npm test`, `npm run demo` and `npm run stack` need before they start, built only when
# missing or stale: the Kafka mock launcher (tools/kafka-mock/build.sh keeps its own stamp)
# and the services' bundles in dist/ (rebuilt when any source, config or the lockfile is newer
# than the last build). One place, so that every entry point works on a fresh clone.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash tools/kafka-mock/build.sh

stamp=dist/.build-stamp
sources=(apps libs packages scripts nest-cli.json tsconfig.json tsconfig.build.json package-lock.json)
if [ -f "$stamp" ] && [ -z "$(find "${sources[@]}" -newer "$stamp" -type f -print -quit)" ]; then
  exit 0
fi
echo "build: dist/ is missing or older than the sources; building the services"
# The stamp's time is taken before the build: a source saved during the build makes the next
# run build again.
started="$(mktemp)"
trap 'rm -f "$started"' EXIT
npm run --silent build
mkdir -p dist
touch -r "$started" "$stamp"
