#!/usr/bin/env bash
# The gateway's systemd unit (contrib/urlkit-gateway.service), checked
# offline by systemd itself, never enabled nor started (issue 36):
#   - `systemd-analyze verify` on a copy whose ExecStart names a urlkit built
#     here (verify wants the program to exist): any message, a warning about
#     an unknown or misspelt key included, fails the check, not only its
#     exit status;
#   - the hardening directives are in the unit, and `systemd-analyze
#     security --offline=yes` rates its exposure at 2.0 or below ("OK").
# Everything is in a temporary directory removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf 'service.sh: %s\n' "$*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

UNIT=contrib/urlkit-gateway.service
TMP=$(mktemp -d /tmp/urlkit-service-ci.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

go build -o "$TMP/urlkit" ./cmd/urlkit
sed "s#/usr/local/bin/urlkit#$TMP/urlkit#" "$UNIT" >"$TMP/urlkit-gateway.service"
grep -q "^ExecStart=$TMP/urlkit serve " "$TMP/urlkit-gateway.service" || fail "ExecStart does not run /usr/local/bin/urlkit serve"

if ! out=$(systemd-analyze verify "$TMP/urlkit-gateway.service" 2>&1); then
	fail "systemd-analyze verify: $out"
fi
[ -z "$out" ] || fail "systemd-analyze verify has something to say: $out"

for d in DynamicUser=yes NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
	PrivateDevices=yes 'CapabilityBoundingSet=$' 'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX$' \
	'SystemCallFilter=@system-service' MemoryDenyWriteExecute=yes 'ExecReload=/bin/kill -HUP \$MAINPID'; do
	grep -q "^$d" "$UNIT" || fail "$UNIT lacks $d"
done

# The serve flags the unit uses exist (a renamed flag would stop the service).
execstart=$(awk '/^ExecStart=/ { p = 1 } p { print } p && !/\\$/ { exit }' "$UNIT")
for f in $(grep -oE -- '--[a-z][a-z-]*' <<<"$execstart" | sort -u); do
	"$TMP/urlkit" serve --help 2>&1 | grep -q -- "^  $f " || fail "the unit uses $f, which urlkit serve does not have"
done

sec=$(systemd-analyze security --offline=yes "$TMP/urlkit-gateway.service" 2>&1) || fail "systemd-analyze security: $sec"
level=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$sec")
[ -n "$level" ] || fail "no exposure level: $sec"
awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }' || fail "exposure level $level, want 2.0 or below: $sec"
log "ok: verify silent, exposure $level (systemd $(systemd-analyze --version | head -n 1 | awk '{print $2}'))"
