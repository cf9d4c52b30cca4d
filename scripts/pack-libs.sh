#!/usr/bin/env bash
# Builds the libraries an application can adopt (packages/<name>/package.json: messaging,
# database, outbox, inbox) with tsc, one package at a time in dependency order, each against
# the declarations of the ones before it, and packs each into dist/packages/<scope>-<name>-<version>.tgz.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
libs=(messaging database outbox inbox)
rm -rf dist/packages-build dist/packages
mkdir -p dist/packages
for lib in "${libs[@]}"; do
  node_modules/.bin/tsc -p "packages/$lib/tsconfig.lib.json"
  cp "packages/$lib/package.json" "dist/packages-build/$lib/"
  if [ -f "packages/$lib/README.md" ]; then cp "packages/$lib/README.md" "dist/packages-build/$lib/"; fi
  (cd "dist/packages-build/$lib" && npm pack --silent --pack-destination "$root/dist/packages" >/dev/null)
done
ls -1 dist/packages
