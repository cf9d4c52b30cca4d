#!/usr/bin/env bash
# Proves that every layer rule of .dependency-cruiser.cjs still bites: in a temporary copy of
# the repository, plants one violation per rule, runs the layer check `npm run lint` runs
# (lint:layers) and expects it to fail naming that rule. A clean copy must pass first, so a
# check that fails on everything cannot pass this test. Run by CI (.ci/run).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT

cd "$root"
# The tracked and new (not ignored) files, as they are in the working tree.
git ls-files -z --cached --others --exclude-standard | grep -zv '^node_modules$' |
  xargs -0 cp --parents -t "$copy" 2>/dev/null || true
ln -s "$root/node_modules" "$copy/node_modules"
cd "$copy"

layers() { npm run --silent lint:layers 2>&1; }

if ! out="$(layers)"; then
  echo "$out"
  echo "check-layer-rules: the clean copy already fails lint:layers" >&2
  exit 1
fi

# rule | file to create or append to | the import line planted in it
plants=(
  "domain-imports-no-framework|apps/order-service/src/orders/domain/order.ts|import '@nestjs/common';"
  "domain-imports-only-domain|apps/order-service/src/orders/domain/order.ts|import '../orders.repository';"
  "domain-imports-only-domain|apps/order-service/src/orders/domain/order.ts|import '@outbox-inbox/database';"
  "packages-import-only-packages|packages/outbox/src/planted.ts|import '@app/observability';"
  "packages-import-only-packages|packages/outbox/src/planted.ts|import '@outbox-inbox/test-kit';"
  "packages-import-only-packages|packages/database/src/planted.ts|import '../../../test/support/run-script';"
  "observability-reads-packages-through-ports|libs/observability/src/planted.ts|import { OutboxRelay } from '@outbox-inbox/outbox';"
  "observability-reads-packages-through-ports|libs/observability/src/metrics/broker-metrics.ts|import { InboxMetrics } from '@outbox-inbox/inbox';"
  "observability-reads-packages-through-ports|libs/observability/src/health/health-details.ts|import '../../../../packages/outbox/src/health/relay-stall';"
  "no-circular|apps/order-service/src/orders/domain/order-state.ts|import type { Order } from './order';"
  "libs-never-import-apps|packages/database/src/planted.ts|import '../../../apps/order-service/src/order-service.module';"
  "apps-do-not-import-each-other|apps/order-service/src/planted.ts|import '../../fulfillment-service/src/fulfillment/domain/fulfillment';"
  "no-deep-imports-into-libs|apps/order-service/src/planted.ts|import '../../../packages/outbox/src/relay/outbox-relay';"
  "no-deep-imports-between-libs|libs/trading-checker/src/planted.ts|import '../../../packages/inbox/src/dead-letter/dead-letter-headers';"
  "lib-tests-are-private|bench/planted.ts|import '../packages/outbox/test/outbox-test-kit';"
  "bench-imports-entry-points-and-sql|bench/planted.ts|import '../packages/outbox/src/relay/outbox-relay';"
  "lib-tests-are-private-between-libs|packages/inbox/test/planted.ts|import '../../outbox/test/outbox-test-kit';"
  "kernel-imports-no-catalogue|packages/messaging/src/planted.ts|import '@app/trading-events';"
  "kernel-imports-no-catalogue|packages/outbox/test/planted.int-spec.ts|import '@app/trading-events';"
  "kernel-imports-no-catalogue|packages/inbox/test/planted.int-spec.ts|import '@app/trading-test-kit';"
  "packages-stand-on-the-ground-floor|packages/outbox/test/planted.int-spec.ts|import '@app/service-bootstrap';"
  "packages-stand-on-the-ground-floor|packages/inbox/src/planted.spec.ts|import '@app/observability';"
  "packages-stand-on-the-ground-floor|packages/outbox/test/planted.ts|import '../../../apps/order-service/src/order-service.module';"
  "packages-stand-on-the-ground-floor|packages/test-kit/src/planted.ts|import '@app/trading-events';"
  "packages-stand-on-the-ground-floor|packages/test-kit/src/planted.ts|import '@app/trading-test-kit';"
  "package-folders-import-downward|packages/outbox/src/store/planted.ts|import '../relay/outbox-relay';"
  "package-folders-import-downward|packages/outbox/src/relay/planted.ts|import '../outbox.module';"
  "package-folders-import-downward|packages/inbox/src/apply/planted.ts|import '../transport/inbox-transport';"
  "not-to-unresolvable|apps/order-service/src/planted.ts|import '@app/outbox/outbox-relay';"
)

failed=0
for plant in "${plants[@]}"; do
  IFS='|' read -r rule file line <<<"$plant"
  backup="$(mktemp)"
  existed=0
  if [ -f "$file" ]; then existed=1 && cp "$file" "$backup"; fi
  printf '%s\n' "$line" >>"$file"
  if out="$(layers)"; then
    echo "FAIL $rule: lint:layers passed with the planted violation in $file" >&2
    failed=1
  elif ! grep -q "error $rule:" <<<"$out"; then
    echo "$out"
    echo "FAIL $rule: lint:layers failed, but not on this rule" >&2
    failed=1
  else
    echo "ok   $rule: lint:layers fails on '$line' in $file"
  fi
  if [ "$existed" = 1 ]; then cp "$backup" "$file"; else rm -f "$file"; fi
  rm -f "$backup"
done
exit "$failed"
