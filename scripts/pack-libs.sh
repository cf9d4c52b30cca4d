#!/usr/bin/env bash
# Builds the libraries an application can adopt (libs/<name>/package.json: messaging,
# database, outbox, inbox) with tsc, one package at a time in dependency order, each against
# the declarations of the ones before it, and packs each into dist/packages/<scope>-<name>-<version>.tgz.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
libs=(messaging database outbox inbox)
rm -rf dist/libs dist/packages
mkdir -p dist/packages
for lib in "${libs[@]}"; do
  node_modules/.bin/tsc -p "libs/$lib/tsconfig.lib.json"
  cp "libs/$lib/package.json" "dist/libs/$lib/"
  if [ -f "libs/$lib/README.md" ]; then cp "libs/$lib/README.md" "dist/libs/$lib/"; fi
  (cd "dist/libs/$lib" && npm pack --silent --pack-destination "$root/dist/packages" >/dev/null)
done
ls -1 dist/packages
