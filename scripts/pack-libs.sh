#!/usr/bin/env bash
# Builds the libraries an application can adopt (packages/<name>/package.json: messaging,
# database, outbox, inbox), each as CommonJS and as ES modules, in dependency order
# (scripts/packages/build-packages.ts), and packs each into
# dist/packages/<scope>-<name>-<version>.tgz.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rm -rf dist/packages
mkdir -p dist/packages
node -r @swc-node/register scripts/packages/build-packages.ts >/dev/null
for dir in dist/packages-build/*/; do
  (cd "$dir" && npm pack --silent --pack-destination "$root/dist/packages" >/dev/null)
done
ls -1 dist/packages
