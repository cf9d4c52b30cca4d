#!/bin/bash
# docker compose's `kafka-certs` one-shot: a CA and, signed by it, the broker's certificate, as
# the test kit makes them (packages/test-kit/src/apache-kafka/cluster-tls.ts): P-256 keys, a PEM
# keystore (the private key then the certificate) the broker reads as it is, no store passwords.
# The names are the ones clients dial: kafka (in the compose network) and localhost (the host's
# listener). Volumes: /tls/ca-private (the CA's key: only this step mounts it), /tls/broker
# (the broker's keystore and the CA), /tls/ca (the CA certificate alone, what clients trust).
# Idempotent: what exists and stays valid for 30 more days is kept.
set -euo pipefail
umask 077
root="${TLS_ROOT:-/tls}"
private="$root/ca-private" broker="$root/broker" public="$root/ca"
month=2592000
newkey=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)

if ! openssl x509 -checkend "$month" -noout -in "$private/ca.pem" >/dev/null 2>&1; then
  openssl req -x509 "${newkey[@]}" -keyout "$private/ca.key" -out "$private/ca.pem" -days 3650 \
    -subj '/CN=trading docker compose CA' \
    -addext 'basicConstraints=critical,CA:TRUE' -addext 'keyUsage=critical,keyCertSign,cRLSign'
  rm -f "$broker/node.crt"
  echo 'kafka-certs: new CA'
fi
if ! openssl x509 -checkend "$month" -noout -in "$broker/node.crt" >/dev/null 2>&1 ||
  ! openssl verify -CAfile "$private/ca.pem" "$broker/node.crt" >/dev/null 2>&1; then
  work="$(mktemp -d)"
  openssl req "${newkey[@]}" -keyout "$work/node.key" -out "$work/node.csr" -subj '/CN=kafka'
  printf 'subjectAltName=DNS:kafka,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\n' \
    >"$work/node.ext"
  openssl x509 -req -in "$work/node.csr" -CA "$private/ca.pem" -CAkey "$private/ca.key" \
    -CAcreateserial -CAserial "$work/ca.srl" -out "$work/node.crt" -days 365 -extfile "$work/node.ext"
  cat "$work/node.key" "$work/node.crt" >"$broker/node-keystore.pem"
  cp "$work/node.crt" "$broker/node.crt"
  rm -rf "$work"
  echo 'kafka-certs: new broker certificate'
fi
cp "$private/ca.pem" "$broker/ca.pem"
cp "$private/ca.pem" "$public/ca.pem"
# The broker runs as the image's appuser (a copy of this script run elsewhere has none); the CA
# certificate is public.
if id appuser >/dev/null 2>&1; then chown appuser "$broker/node-keystore.pem"; fi
chmod 0400 "$broker/node-keystore.pem"
chmod 0444 "$broker/ca.pem" "$broker/node.crt" "$public/ca.pem"
echo 'kafka-certs: CA and broker certificate in place'
