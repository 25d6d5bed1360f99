#!/bin/sh
# Regenerates the simulator's TEST-ONLY TLS material: a throw-away CA (ca.pem; its key is deleted,
# so it can sign nothing else) and the media host's certificate for 127.0.0.1 / localhost
# (media-host.pem, media-host-key.pem), valid for 100 years. Never trust ca.pem outside tests.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 36500 \
  -subj "/CN=WhatsApp simulator test CA (never trust outside tests)" \
  -addext "basicConstraints=critical,CA:TRUE,pathlen:0" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout "$tmp/ca-key.pem" -out ca.pem
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=127.0.0.1" \
  -keyout media-host-key.pem -out "$tmp/host.csr"
printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n' > "$tmp/ext.cnf"
openssl x509 -req -in "$tmp/host.csr" -CA ca.pem -CAkey "$tmp/ca-key.pem" -CAcreateserial -days 36500 \
  -extfile "$tmp/ext.cnf" -out media-host.pem
rm -f ca.srl
