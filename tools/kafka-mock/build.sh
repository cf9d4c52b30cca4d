#!/usr/bin/env bash
# Builds tools/kafka-mock/build/kafka-mock against the librdkafka that the
# node-rdkafka devDependency compiles during `npm ci` (Debian's librdkafka is too old
# for the mock API this launcher uses). Rebuilds only when the source or the
# library changed, so calling it before every test run is cheap.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rdkafka="$root/node_modules/node-rdkafka"
src="$here/kafka-mock.c"
out="$here/build/kafka-mock"
lib="$rdkafka/build/deps/librdkafka.so.1"
include="$rdkafka/deps/librdkafka/src"

if [ ! -f "$lib" ] || [ ! -f "$include/rdkafka_mock.h" ]; then
  echo "kafka-mock: $lib or its headers are missing." >&2
  echo "kafka-mock: run 'npm ci' first: node-rdkafka's install script builds librdkafka." >&2
  exit 1
fi

stamp="$(cat "$src" "$0" | sha256sum | cut -c1-16)-$(stat -c %Y "$lib")"
if [ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi

mkdir -p "$here/build"
cc -O2 -Wall -Wextra -Werror -std=gnu11 -isystem "$include" -o "$out.tmp" "$src" \
  -L"$(dirname "$lib")" -l:librdkafka.so.1 -Wl,-rpath,"$(dirname "$lib")" -lpthread
mv "$out.tmp" "$out"
echo "$stamp" > "$out.stamp"
echo "kafka-mock: built $out"
