#!/usr/bin/env bash
# Builds tools/kafka-mock/build/kafka-mock against the librdkafka of @confluentinc/kafka-javascript,
# the relay's second Kafka client, so that one librdkafka is compiled per install (Debian's is
# too old for the mock API this launcher uses). Rebuilds only when the source or the library
# changed, so calling it before every test run is cheap.
#
# Where the library comes from:
# - npm ci's postinstall (scripts/install-confluent-kafka.sh) built the package's bundled
#   librdkafka with CKJS_LINKING=dynamic: its headers and librdkafka.so.1 are in the package's
#   build/deps. This is the usual case, and CI's.
# - Otherwise (Confluent's prebuilt binary was downloaded, which links librdkafka statically and
#   ships no library or headers; or that build failed), the same bundled source is built here
#   once, into build/librdkafka, without SSL or compression libraries: the mock needs none.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
pkg="$root/node_modules/@confluentinc/kafka-javascript"
src="$here/kafka-mock.c"
out="$here/build/kafka-mock"
own="$here/build/librdkafka"

fail() {
  echo "kafka-mock: $1" >&2
  exit 1
}

# Whether the mock's headers are under `prefix` and librdkafka.so.1 is in `libdir`.
usable() {
  local prefix="$1" libdir="$2"
  [ -f "$prefix/include/librdkafka/rdkafka_mock.h" ] && [ -f "$libdir/librdkafka.so.1" ]
}

build_own_librdkafka() {
  local source="$pkg/deps/librdkafka"
  [ -x "$source/configure" ] \
    || fail "$source is missing: run 'npm ci' first (the mock builds against @confluentinc/kafka-javascript's librdkafka)."
  command -v cc >/dev/null && command -v make >/dev/null \
    || fail "building librdkafka needs a C toolchain and make: on Debian or Ubuntu, apt-get install build-essential python3"
  echo "kafka-mock: $pkg/build/deps has no librdkafka.so.1 (prebuilt client binary, or its build failed);"
  echo "kafka-mock: building the package's bundled librdkafka for the mock into $own (a few minutes, once)"
  local work="$here/build/librdkafka-src" log="$here/build/librdkafka-build.log"
  rm -rf "$work" "$own"
  mkdir -p "$here/build"
  # A copy: the package's own tree stays as its install left it.
  cp -a "$source" "$work"
  if ! (
    cd "$work" \
      && ./configure --prefix="$own" --libdir="$own/lib" --disable-ssl --disable-gssapi \
        --disable-zstd --disable-zlib --disable-curl --disable-lz4-ext \
      && make -C src clean \
      && make -j"$(nproc)" -C src \
      && make -C src install
  ) >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    fail "librdkafka did not build (above: the end of $log). It needs a C toolchain, make and python3 (Debian or Ubuntu: apt-get install build-essential python3); then npm run build:kafka-mock again."
  fi
  rm -rf "$work"
}

if usable "$pkg/build/deps" "$pkg/build/deps"; then
  include="$pkg/build/deps/include/librdkafka"
  libdir="$pkg/build/deps"
else
  usable "$own" "$own/lib" || build_own_librdkafka
  include="$own/include/librdkafka"
  libdir="$own/lib"
fi
lib="$libdir/librdkafka.so.1"

stamp="$(cat "$src" "$0" | sha256sum | cut -c1-16)-$lib-$(stat -c %Y "$lib")"
if [ -x "$out" ] && [ "$(cat "$out.stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi

mkdir -p "$here/build"
cc -O2 -Wall -Wextra -Werror -std=gnu11 -isystem "$include" -o "$out.tmp" "$src" \
  -L"$libdir" -l:librdkafka.so.1 -Wl,-rpath,"$libdir" -lpthread
mv "$out.tmp" "$out"
echo "$stamp" > "$out.stamp"
echo "kafka-mock: built $out against $lib"
