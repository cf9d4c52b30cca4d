#!/usr/bin/env bash
# Resolves the pinned Apache Kafka broker (pom.xml) and its dependencies into lib/, with Maven,
# from Maven Central. Resolves again only when pom.xml or this script changed, so calling it
# before every run is cheap. Needs Java 17+ (the broker's minimum) and Maven.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lib="$here/lib"

if ! command -v java >/dev/null 2>&1; then
  echo "apache-kafka: no 'java' on PATH. Kafka 4 needs Java 17 or newer:" >&2
  echo "apache-kafka:   apt-get install openjdk-17-jre-headless (or set JAVA_HOME/bin on PATH)" >&2
  exit 1
fi
# `java -version` prints e.g. openjdk version "17.0.15" or "1.8.0_402" (Java 8) on stderr.
java_major="$(java -version 2>&1 | sed -n 's/.* version "\([0-9]*\)\(\.\([0-9]*\)\)\{0,1\}.*/\1 \3/p' | head -n 1)"
set -- $java_major
major="${1:-0}"
[ "$major" = "1" ] && major="${2:-0}"
if [ "$major" -lt 17 ]; then
  echo "apache-kafka: Java $major found; Kafka 4 needs Java 17 or newer." >&2
  exit 1
fi

stamp="$(cat "$here/pom.xml" "$0" | sha256sum | cut -c1-16)"
if [ -f "$lib/.stamp" ] && [ "$(cat "$lib/.stamp")" = "$stamp" ]; then
  exit 0
fi
if ! command -v mvn >/dev/null 2>&1; then
  echo "apache-kafka: no 'mvn' on PATH. Maven resolves the broker from Maven Central:" >&2
  echo "apache-kafka:   apt-get install maven" >&2
  exit 1
fi

echo "apache-kafka: resolving $(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml") with Maven…" >&2
rm -rf "$lib.tmp"
# Maven 3.8 colours even in batch mode; the escapes are stripped from what it says.
mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$lib.tmp" 2>&1 \
  | sed "s/\x1b\[[0-9;]*m//g" >&2
rm -rf "$lib"
mv "$lib.tmp" "$lib"
echo "$stamp" > "$lib/.stamp"
echo "apache-kafka: $(ls "$lib"/*.jar | wc -l) jars in $lib" >&2
