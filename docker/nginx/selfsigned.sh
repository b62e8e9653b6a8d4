#!/bin/sh
# A self-signed certificate for local use, made at first start (compose's nginx, scripts/stack):
# when JUDGEAPP_TLS_CERT and JUDGEAPP_TLS_KEY are both missing and are the default self-signed
# names. A certificate named by configuration (a real one) is never replaced: missing, it is an error.
#   selfsigned.sh CERT KEY [HOST...]
set -eu
cert=$1 key=$2
shift 2
if [ -s "$cert" ] && [ -s "$key" ]; then
  exit 0
fi
case "$cert" in
  */selfsigned.crt) ;;
  *) echo "judgeapp: TLS certificate $cert or key $key not found (JUDGEAPP_TLS_CERT," \
       "JUDGEAPP_TLS_KEY)" >&2
     exit 1 ;;
esac
command -v openssl >/dev/null 2>&1 || {
  echo "judgeapp: openssl is needed to make the self-signed certificate $cert" >&2
  exit 1
}
names="DNS:localhost,IP:127.0.0.1"
for host in "$@"; do
  case "$host" in
    ''|'*') ;;
    .*) names="$names,DNS:*$host" ;;
    *[!0-9.]*) names="$names,DNS:$host" ;;
    *) names="$names,IP:$host" ;;
  esac
done
mkdir -p "$(dirname "$cert")" "$(dirname "$key")"
umask 077
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 825 -subj "/CN=judgeapp (self-signed)" \
  -addext "subjectAltName=$names" -keyout "$key" -out "$cert" 2>/dev/null
chmod 644 "$cert"
echo "judgeapp: made a self-signed certificate for $names: $cert (replace it with a real one:" \
  "JUDGEAPP_TLS_CERT, JUDGEAPP_TLS_KEY)"
