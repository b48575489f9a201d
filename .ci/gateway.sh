#!/usr/bin/env bash
# Real clients through `urlkit serve` (issue 15), against the daemons that
# .ci/servers.sh started (gophernicus, vsftpd, innd on loopback):
#   - curl: the path form (pages, statuses) and the proxy form (--request-target)
#   - lynx with gopher_proxy and ftp_proxy pointing at the gateway
#   - urlkit get with gopher_proxy / ftp_proxy / --proxy
#   - headless Chromium (Debian's chromium, its own command line): the path
#     form of a gophernicus menu and of a vsftpd directory, following a link
#     in each; screenshots and DOM dumps kept in $URLKIT_CI_OUT/gateway.
# Everything listens on 127.0.0.1 only; everything started here is stopped
# by the EXIT trap, with the temporary directories.
set -euo pipefail
cd "$(dirname "$0")/.."

# Gateway settings come only from the commands below, never from the
# machine's environment (curl, lynx and chromium would obey them).
unset http_proxy https_proxy ftp_proxy gopher_proxy news_proxy nntp_proxy wais_proxy prospero_proxy \
	all_proxy no_proxy HTTP_PROXY HTTPS_PROXY FTP_PROXY GOPHER_PROXY ALL_PROXY NO_PROXY

ENVFILE=${URLKIT_SERVERS_ENV:-/tmp/urlkit-servers.env}
OUT=${URLKIT_CI_OUT:-ci-output}/gateway
log() { printf 'gateway.sh: %s\n' "$*" >&2; }
fail() { log "FAIL: $*"; exit 1; }

[ -f "$ENVFILE" ] || fail "no $ENVFILE: run .ci/servers.sh first"
# KEY=VALUE lines (values hold "<" and ">", so the file is read, not sourced)
while IFS='=' read -r k v; do
	case $k in URLKIT_[A-Z0-9_]*) printf -v "$k" '%s' "$v" ;; esac
done <"$ENVFILE"

need=()
command -v curl >/dev/null || need+=(curl)
command -v lynx >/dev/null || need+=(lynx)
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

TMP=$(mktemp -d /tmp/urlkit-gateway-ci.XXXXXX)
GWPID=
HOSTILEPID=
cleanup() {
	if [ -n "$HOSTILEPID" ] && kill -0 "$HOSTILEPID" 2>/dev/null; then
		kill "$HOSTILEPID" 2>/dev/null || true
		wait "$HOSTILEPID" 2>/dev/null || true
	fi
	if [ -n "$GWPID" ] && kill -0 "$GWPID" 2>/dev/null; then
		kill "$GWPID" 2>/dev/null || true
		wait "$GWPID" 2>/dev/null || true
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
rm -rf "$OUT"
mkdir -p "$OUT"

go build -o "$TMP/urlkit" ./cmd/urlkit
# Port 0: the kernel picks a free port; the gateway says which on stderr.
"$TMP/urlkit" serve --listen 127.0.0.1:0 2>"$OUT/serve.log" &
GWPID=$!
GW=
for _ in $(seq 100); do
	GW=$(sed -n 's#.*gateway on \(http://127\.0\.0\.1:[0-9]*\)/.*#\1#p' "$OUT/serve.log")
	[ -n "$GW" ] && break
	sleep 0.1
done
[ -n "$GW" ] || fail "urlkit serve did not start: $(cat "$OUT/serve.log")"
log "gateway at $GW"

G=$URLKIT_GOPHER_ADDR
F=$URLKIT_FTP_ADDR
N=$URLKIT_NNTP_ADDR

# ---- curl --------------------------------------------------------------------
status() { curl -s -o "$TMP/body" -w '%{http_code}' "$@"; }
expect_status() { # want curl-args...
	local want=$1 got
	shift
	got=$(status "$@")
	[ "$got" = "$want" ] || fail "curl $*: status $got, want $want: $(head -c 300 "$TMP/body")"
}
expect_status 200 "$GW/gopher://$G/1/"
grep -q "href=\"/gopher://$G/1/docs\">Docs directory</a>" "$TMP/body" || fail "curl: menu page lacks the Docs link"
expect_status 200 --request-target "gopher://$G/9/all256.bin" "$GW/"
cmp -s "$TMP/body" "$URLKIT_CONTENT_BINARY" || fail "curl proxy form: all256.bin differs"
hdr=$(curl -s -D - -o /dev/null --request-target "gopher://$G/9/all256.bin" "$GW/")
grep -qi '^content-type: application/octet-stream' <<<"$hdr" || fail "gopher binary not application/octet-stream: $hdr"
grep -qi '^content-length: 256' <<<"$hdr" || fail "gopher binary without Content-Length 256: $hdr"
expect_status 200 "$GW/ftp://$F/pub/hello.txt"
cmp -s "$TMP/body" "$URLKIT_CONTENT_TEXT" || fail "curl path form: ftp hello.txt differs"
expect_status 200 "$GW/nntp://$N/$URLKIT_NNTP_GROUP"
grep -q 'urlkit test one' "$TMP/body" || fail "curl: group page lacks the first article"
expect_status 403 "$GW/file:///etc/passwd"
expect_status 403 "$GW/gopher://127.0.0.1:25/0x"
expect_status 403 "$GW/gopher://$G/0a%0D%0AQUIT"
expect_status 400 "$GW/ftp://$F/pub/x;type=q"
expect_status 502 "$GW/ftp://$F/pub/no-such-file.txt"
expect_status 502 "$GW/ftp://$URLKIT_FTP_USER:wrong-password@$F/pub/"
expect_status 200 "$GW/ftp://$URLKIT_FTP_USER:$URLKIT_FTP_PASSWORD@$F/pub/"
if grep -q "$URLKIT_FTP_PASSWORD" "$TMP/body"; then fail "a page shows the ftp password"; fi
log "curl: ok"

# ---- urlkit get through the gateway -------------------------------------------
gopher_proxy=$GW/ "$TMP/urlkit" get "gopher://$G/9/all256.bin" >"$TMP/got"
cmp -s "$TMP/got" "$URLKIT_CONTENT_BINARY" || fail "urlkit get via gopher_proxy: all256.bin differs"
ftp_proxy=$GW/ "$TMP/urlkit" get "ftp://$F/pub/all256.bin" >"$TMP/got"
cmp -s "$TMP/got" "$URLKIT_CONTENT_BINARY" || fail "urlkit get via ftp_proxy: all256.bin differs"
"$TMP/urlkit" get --proxy "$GW" "ftp://$F/pub/hello.txt" >"$TMP/got"
cmp -s "$TMP/got" "$URLKIT_CONTENT_TEXT" || fail "urlkit get --proxy: hello.txt differs"
if "$TMP/urlkit" get --proxy "$GW" "gopher://127.0.0.1:25/0x" >/dev/null 2>"$TMP/err"; then
	fail "urlkit get through the gateway to port 25 succeeded"
fi
grep -q '403' "$TMP/err" || fail "urlkit get: the gateway's 403 not reported: $(cat "$TMP/err")"
log "urlkit get: ok"

# ---- lynx (gopher_proxy, ftp_proxy) -----------------------------------------------
export HOME=$TMP # lynx reads no user configuration
gopher_proxy=$GW/ timeout 60 lynx -dump "gopher://$G/1/" >"$OUT/lynx-menu.txt"
grep -q 'Docs directory' "$OUT/lynx-menu.txt" || fail "lynx: menu lacks Docs directory"
grep -q "gopher://$G/0/hello.txt" "$OUT/lynx-menu.txt" || fail "lynx: menu lacks the hello.txt link"
gopher_proxy=$GW/ timeout 60 lynx -source "gopher://$G/9/all256.bin" >"$TMP/got"
cmp -s "$TMP/got" "$URLKIT_CONTENT_BINARY" || fail "lynx via gopher_proxy: all256.bin differs"
ftp_proxy=$GW/ timeout 60 lynx -dump "ftp://$F/pub/" >"$OUT/lynx-ftp.txt"
grep -q "ftp://$F/pub/hello.txt" "$OUT/lynx-ftp.txt" || fail "lynx: ftp listing lacks hello.txt"
ftp_proxy=$GW/ timeout 60 lynx -source "ftp://$F/pub/hello.txt" >"$TMP/got"
cmp -s "$TMP/got" "$URLKIT_CONTENT_TEXT" || fail "lynx via ftp_proxy: hello.txt differs"
grep -q "\"GET gopher://$G/1/ HTTP/1.0\" 200" "$OUT/serve.log" || fail "the log lacks lynx's proxy-form request"
log "lynx: ok"

# ---- headless Chromium: path form, follow a link, screenshots ---------------------
chrome() { # chromium-args... (a fresh profile each time; nothing outlives it)
	local prof
	prof=$(mktemp -d "$TMP/chromium.XXXXXX")
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --no-proxy-server \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$prof" --window-size=1000,700 "$@" 2>>"$OUT/chromium.log"
}
# The menu, then the link the browser found in it (its parsed DOM).
chrome --dump-dom "$GW/gopher://$G/1/" >"$OUT/menu.html"
href=$(grep -o 'href="[^"]*">Docs directory' "$OUT/menu.html" | sed 's/^href="//; s/">.*//')
[ "$href" = "/gopher://$G/1/docs" ] || fail "chromium: menu link is '$href'"
chrome --dump-dom "$GW$href" >"$OUT/docs.html"
grep -q "href=\"/gopher://$G/0/docs/inner.txt\"" "$OUT/docs.html" || fail "chromium: the followed menu lacks inner.txt"
chrome --screenshot="$OUT/gopher-menu.png" "$GW/gopher://$G/1/" >/dev/null
# The ftp directory (vsftpd's LIST read: a directory is linked with its
# final "/"); without the "/" the gateway answers with a redirect the
# browser follows.
chrome --dump-dom "$GW/ftp://$F/pub/" >"$OUT/ftp.html"
href=$(grep -o 'href="[^"]*">dir/<' "$OUT/ftp.html" | sed 's/^href="//; s/">.*//')
[ "$href" = "./dir/" ] || fail "chromium: ftp listing link is '$href'"
grep -q 'title="256 bytes">256 B<' "$OUT/ftp.html" || fail "chromium: the ftp listing lacks all256.bin's size"
chrome --dump-dom "$GW/ftp://$F/pub/dir" >"$OUT/ftp-dir.html"
grep -q 'href="./a.txt"' "$OUT/ftp-dir.html" || fail "chromium: the followed directory lacks a.txt"
chrome --screenshot="$OUT/ftp-dir.png" "$GW/ftp://$F/pub/dir/" >/dev/null
# A hostile gopher menu (markup and scripts in display strings, javascript:
# and data: selectors), served by socat on loopback: the page Chromium builds
# from it must hold none of it as markup, and no script may have run.
printf '%s\r\n' \
	"i<script>document.body.innerHTML='PWNED'</script>	x	h	1" \
	"0<img src=x onerror=\"document.title='PWNED'\">doc	/d	127.0.0.1	70" \
	"1javascript link	javascript:document.title='PWNED'	127.0.0.1	70" \
	"hURL link	URL:javascript:document.title='PWNED'	127.0.0.1	70" \
	"hdata link	URL:data:text/html,<script>alert(1)</script>	127.0.0.1	70" \
	"." >"$TMP/hostile.menu"
HPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
socat "TCP-LISTEN:$HPORT,bind=127.0.0.1,reuseaddr,fork" "SYSTEM:cat $TMP/hostile.menu" 2>/dev/null &
HOSTILEPID=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$HPORT") 2>/dev/null && break; sleep 0.1; done
chrome --dump-dom "$GW/gopher://127.0.0.1:$HPORT/1/" >"$OUT/hostile.html"
grep -q 'enter another URL' "$OUT/hostile.html" || fail "chromium: no page for the hostile menu"
if grep -q 'PWNED</' "$OUT/hostile.html" || grep -qi '<img\|<script\|href="javascript\|href="data' "$OUT/hostile.html"; then
	fail "chromium: the hostile menu's markup or script reached the page (see $OUT/hostile.html)"
fi
grep -q 'urlkit gateway</title>\|<title>gopher://' "$OUT/hostile.html" || fail "chromium: the page title changed"
chrome --screenshot="$OUT/hostile-menu.png" "$GW/gopher://127.0.0.1:$HPORT/1/" >/dev/null
for f in gopher-menu.png ftp-dir.png hostile-menu.png; do
	[ -s "$OUT/$f" ] || fail "chromium wrote no $f"
done
log "chromium: ok (screenshots in $OUT)"

# ---- the log: Common Log Format, no password ---------------------------------------
if grep -q "$URLKIT_FTP_PASSWORD" "$OUT/serve.log"; then fail "the log shows the ftp password"; fi
grep -q "$URLKIT_FTP_USER:xxxxx@" "$OUT/serve.log" || fail "the log lacks the masked login"
log "all gateway checks passed"
