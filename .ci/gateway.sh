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

# Installed through .ci/lib.sh (lock timeout, nothing left enabled, listed).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
ci_apt_install curl lynx chromium

TMP=$(mktemp -d /tmp/urlkit-gateway-ci.XXXXXX)
GWPID=
HOSTILEPID=
BAITPID=
ATTACKPID=
REPLAYPID= # issue 33: the replaying gateway
cleanup() {
	for pid in "$HOSTILEPID" "$BAITPID" "$ATTACKPID" "$REPLAYPID"; do
		if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
			kill "$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
		fi
	done
	if [ -n "$GWPID" ] && kill -0 "$GWPID" 2>/dev/null; then
		kill "$GWPID" 2>/dev/null || true
		wait "$GWPID" 2>/dev/null || true
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
rm -rf "$OUT"
mkdir -p "$OUT"

G=$URLKIT_GOPHER_ADDR
F=$URLKIT_FTP_ADDR
N=$URLKIT_NNTP_ADDR
# freeports N: N distinct free ports, each socket held until all are bound (one
# at a time, the kernel gives the same port twice often enough to make the bait
# and the page of another origin share one).
freeports() { python3 -c 'import socket, sys; ss = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])' "$1"; }
# The hostile menu's server, the bait listener that counts connections and
# the page of another origin (issue 21) get their ports now: the gateway
# must be told which loopback targets it may reach.
read -r HPORT BPORT APORT < <(freeports 3)

go build -o "$TMP/urlkit" ./cmd/urlkit
# Port 0: the kernel picks a free port; the gateway says which on stderr.
# The daemons are on loopback on ports of their own: each is named with
# --allow (the policy reaches loopback targets only on their scheme's own
# port otherwise).
# (issue 36: and freeWAIS-sf and dirsrv, for the WAIS and Prospero pages)
"$TMP/urlkit" serve --listen 127.0.0.1:0 --allow "$G,$F,$N,127.0.0.1:$HPORT,127.0.0.1:$BPORT,$URLKIT_WAIS_ADDR,$URLKIT_PROSPERO_ADDR" 2>"$OUT/serve.log" &
GWPID=$!
GW=
for _ in $(seq 100); do
	GW=$(sed -n 's#.*gateway on \(http://127\.0\.0\.1:[0-9]*\)/.*#\1#p' "$OUT/serve.log")
	[ -n "$GW" ] && break
	sleep 0.1
done
[ -n "$GW" ] || fail "urlkit serve did not start: $(cat "$OUT/serve.log")"
log "gateway at $GW"

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
	$'0photo\xe2\x80\xaegpj.exe (a name reversed by U+202E)	/p	127.0.0.1	70' \
	$'i\xe2\x81\xa7isolated\xe2\x81\xa9 \xe2\x80\x8fmarks\xe2\x80\x8e and \xe2\x80\xabembedding\xe2\x80\xac	x	h	1' \
	"." >"$TMP/hostile.menu"
socat "TCP-LISTEN:$HPORT,bind=127.0.0.1,reuseaddr,fork" "SYSTEM:cat $TMP/hostile.menu" 2>/dev/null &
HOSTILEPID=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$HPORT") 2>/dev/null && break; sleep 0.1; done
chrome --dump-dom "$GW/gopher://127.0.0.1:$HPORT/1/" >"$OUT/hostile.html"
grep -q 'enter another URL' "$OUT/hostile.html" || fail "chromium: no page for the hostile menu"
if grep -q 'PWNED</' "$OUT/hostile.html" || grep -qi '<img\|<script\|href="javascript\|href="data' "$OUT/hostile.html"; then
	fail "chromium: the hostile menu's markup or script reached the page (see $OUT/hostile.html)"
fi
grep -q 'urlkit gateway</title>\|<title>gopher://' "$OUT/hostile.html" || fail "chromium: the page title changed"
# >>> issue 34: bidi controls in display strings are shown, not applied
# The page shows each as a visible mark ("[U+202E]") and holds none of them:
# the listed name reads "photo[U+202E]gpj.exe", never "photoexe.jpg".
grep -q 'photo\[U+202E\]gpj.exe' "$OUT/hostile.html" || fail "chromium: the U+202E name is not shown with its mark"
# (U+202E, U+2067, U+2069, U+200F, U+200E, U+202B, U+202C as UTF-8 bytes)
if LC_ALL=C grep -q -e $'\xe2\x80\xae' -e $'\xe2\x81\xa7' -e $'\xe2\x81\xa9' -e $'\xe2\x80\x8f' \
	-e $'\xe2\x80\x8e' -e $'\xe2\x80\xab' -e $'\xe2\x80\xac' "$OUT/hostile.html"; then
	fail "chromium: a bidi control reached the page (see $OUT/hostile.html)"
fi
# <<< issue 34
chrome --screenshot="$OUT/hostile-menu.png" "$GW/gopher://127.0.0.1:$HPORT/1/" >/dev/null
for f in gopher-menu.png ftp-dir.png hostile-menu.png; do
	[ -s "$OUT/$f" ] || fail "chromium wrote no $f"
done
log "chromium: ok (screenshots in $OUT)"

# >>> issue 21: a page of another origin cannot drive the gateway (headless Chromium)
# The bait is a loopback listener that counts connections, standing for
# Redis or any other local service; the gateway is told to reach it
# (--allow), so only the origin rules (O1-O3) stand between a page and it.
# A page served from another origin (localhost vs 127.0.0.1: another site;
# 127.0.0.1 on another port: same site, another origin) points <img>s,
# no-cors fetches and an iframe at the gateway, and navigates to it; nothing
# may reach the bait. A request naming the gateway by another name (DNS
# rebinding) gets 421. Controls: curl and a URL typed into Chromium do
# reach it, so the count would see a connection.
: >"$TMP/bait.hits"
socat "TCP-LISTEN:$BPORT,bind=127.0.0.1,reuseaddr,fork" "SYSTEM:echo hit >>$TMP/bait.hits; echo iok" 2>/dev/null &
BAITPID=$!
mkdir -p "$TMP/attack"
bait="http://127.0.0.1:${GW##*:}/gopher://127.0.0.1:$BPORT/0"
cat >"$TMP/attack/attack.html" <<EOF
<!DOCTYPE html><html><head><title>attack</title>
</head><body>
<img src="${bait}SET%20x%20img">
<img referrerpolicy="no-referrer" src="${bait}SET%20x%20img-noreferrer">
<iframe src="${bait}SET%20x%20iframe"></iframe>
<script>
fetch("${bait}SET%20x%20fetch", {mode: "no-cors"}).catch(() => {});
fetch("${bait}SET%20x%20fetch-noreferrer", {mode: "no-cors", referrerPolicy: "no-referrer"}).catch(() => {});
</script>
</body></html>
EOF
# A top-level navigation from that site (a script setting location; a
# link clicked would be the same request): served, but only for public
# targets, so the loopback bait is refused when dialled (rule O3).
cat >"$TMP/attack/navigate.html" <<EOF
<!DOCTYPE html><html><head><title>navigate</title>
<script>location.href = "${bait}navigate";</script>
</head><body></body></html>
EOF
python3 -m http.server --bind 127.0.0.1 --directory "$TMP/attack" "$APORT" >/dev/null 2>&1 &
ATTACKPID=$!
for _ in $(seq 50); do
	(exec 3<>"/dev/tcp/127.0.0.1/$BPORT") 2>/dev/null && (exec 3<>"/dev/tcp/127.0.0.1/$APORT") 2>/dev/null && break
	sleep 0.1
done
sleep 0.2
: >"$TMP/bait.hits" # the readiness probe above connected once
hits() { wc -l <"$TMP/bait.hits" | tr -d ' '; }
n=0
for page in "http://localhost:$APORT/attack.html" "http://127.0.0.1:$APORT/attack.html"; do
	n=$((n + 1))
	chrome --virtual-time-budget=8000 --dump-dom "$page" >"$OUT/attack-$n.html"
done
sleep 1
[ "$(hits)" = 0 ] || fail "a page of another origin made the gateway connect to the bait $(hits) times"
# The requests did reach the gateway, and were refused there.
for what in img img-noreferrer iframe fetch fetch-noreferrer; do
	n=$(grep -c "\"GET /gopher://127.0.0.1:$BPORT/0SET%20x%20$what HTTP/1.1\" 403" "$OUT/serve.log" || true)
	[ "$n" = 2 ] || fail "chromium: the $what request is in the gateway's log as refused $n times, want 2 (one per page)"
done
# (--virtual-time-budget is not used here: with it, headless Chromium waits
# for ever after a navigation to an HTML page.)
chrome --dump-dom "http://localhost:$APORT/navigate.html" >"$OUT/navigate.html"
grep -q "\"GET /gopher://127.0.0.1:$BPORT/0navigate HTTP/1.1\" 403" "$OUT/serve.log" ||
	fail "chromium: the cross-site navigation to a loopback target was not refused"
grep -q "(O3)" "$OUT/navigate.html" || fail "chromium: the navigation's page does not name rule O3"
# DNS rebinding: the browser resolves evil.example to the gateway.
chrome --host-resolver-rules="MAP evil.example 127.0.0.1" --dump-dom "http://evil.example:${GW##*:}/gopher://127.0.0.1:$BPORT/0rebind" >"$OUT/rebind.html"
grep -q "\"GET /gopher://127.0.0.1:$BPORT/0rebind HTTP/1.1\" 421" "$OUT/serve.log" || fail "chromium: the rebinding request did not get 421"
code=$(curl -s -o /dev/null -H 'Host: evil.example' -w '%{http_code}' "${bait}curl-rebind")
[ "$code" = 421 ] || fail "curl: a foreign Host got $code, want 421"
[ "$(hits)" = 0 ] || fail "the rebinding requests reached the bait"
# Controls: without browser headers, and typed into the browser, it is reached.
curl -s -o /dev/null "${bait}control"
[ "$(hits)" = 1 ] || fail "control: curl through the gateway did not reach the bait ($(hits))"
chrome --dump-dom "${bait}typed" >/dev/null
[ "$(hits)" = 2 ] || fail "control: a URL typed into chromium did not reach the bait ($(hits))"
log "chromium: pages of other origins reached nothing; rebinding refused (421)"
# <<< issue 21

# >>> issue 22: the pages people browse, seen in Chromium and lynx
# Screenshots (headless Chromium) and lynx -dump, through the gateway, of a
# gopher menu, an ftp directory, a gopher search's results, a Latin-1 text
# and an error page, kept in $OUT/browse; lynx talking to the same servers
# directly is the yardstick, dumped beside them.
B=$OUT/browse
mkdir -p "$B"
t22=$SECONDS
menu="gopher://$G/1/"
ftpdir="ftp://$F/pub/"
search="gopher://$G/7/cgi-bin/search%09caf%C3%A9"
latin1="ftp://$F/pub/latin1.txt"
broken="ftp://$F/pub/no-such-file.txt"
for name in menu ftpdir search latin1 broken; do
	url=${!name}
	chrome --screenshot="$B/$name.png" "$GW/$url" >/dev/null
	[ -s "$B/$name.png" ] || fail "chromium wrote no $name.png"
	timeout 60 lynx -dump -display_charset=utf-8 "$GW/$url" >"$B/lynx-$name.txt" || true
	timeout 60 lynx -dump -display_charset=utf-8 "$url" >"$B/lynx-direct-$name.txt" 2>&1 || true
done
# What a person sees: the menu's items and its info-line art in one block,
# the directory's sizes and kinds, the search's results, the accents of the
# Latin-1 text, and the error in plain words with a way back.
grep -q 'Docs directory' "$B/lynx-menu.txt" || fail "lynx: the menu page lacks its items"
grep -q '| left | right|' "$B/lynx-menu.txt" || fail "lynx: the menu's info-line art is not kept"
# The search item's field ends its line: the art follows at once, no blank line.
grep -A1 'Search the test server' "$B/lynx-menu.txt" | tail -n 1 | grep -q -- '+------+' || fail "lynx: a blank line after the menu's search field"
# A search item opened by itself: its page is titled with the selector's last part.
timeout 60 lynx -dump "$GW/gopher://$G/7/cgi-bin/search" >"$B/lynx-searchform.txt" || true
grep -q 'search: search' "$B/lynx-searchform.txt" || fail "lynx: the search item's page lacks its title"
grep -q 'README' "$B/lynx-ftpdir.txt" && grep -q '1.5 MiB' "$B/lynx-ftpdir.txt" || fail "lynx: the ftp page lacks README or big.bin's size"
grep -q 'dir/' "$B/lynx-ftpdir.txt" || fail "lynx: the ftp page lacks the directory with its /"
grep -q 'Results for "café"' "$B/lynx-search.txt" || fail "lynx: the search results lack the term"
grep -q 'Café crème, naïve garçon' "$B/lynx-latin1.txt" || fail "lynx: the Latin-1 text lost its accents through the gateway"
grep -q 'Café crème' "$B/lynx-direct-latin1.txt" || log "lynx direct: $(head -c 200 "$B/lynx-direct-latin1.txt")"
grep -q 'Bad Gateway (502)' "$B/lynx-broken.txt" && grep -q '550' "$B/lynx-broken.txt" || fail "lynx: the error page lacks its status or the server's reply"
grep -q 'Retry' "$B/lynx-broken.txt" || fail "lynx: the error page has no retry link"
grep -q 'charset=windows-1252' <(curl -s -D - -o /dev/null "$GW/$latin1") || fail "curl: the Latin-1 text is not declared windows-1252"
log "browse pages: ok ($((SECONDS - t22)) s; screenshots and dumps in $B)"
# <<< issue 22

# >>> issue 36: WAIS and Prospero pages, urlkit's own error pages, get --proxy as get
# Screenshots (headless Chromium) of the WAIS search form and hits of freeWAIS-sf, a Prospero
# directory of dirsrv and its page for a name outside its tree, and the error pages of a
# malformed escape (which net/http would answer itself), a "~" (with the repaired link) and a
# gopher search written with "?", kept in $OUT/browse with the lynx dumps of the same pages; then
# urlkit get --proxy against urlkit get for a menu, a directory, WAIS hits and a Prospero listing.
t36=$SECONDS
W=$URLKIT_WAIS_ADDR
P=$URLKIT_PROSPERO_ADDR
PR=$URLKIT_PROSPERO_ROOT
declare -A pages36=(
	[wais-form]="wais://$W/demo"
	[wais-hits]="wais://$W/demo?retrieval"
	[prospero-dir]="prospero://$P/$PR/pub"
	[prospero-refused]="prospero://$P/pub"
	[error-escape]="gopher://$G/0/a%zz"
	[error-tilde]="gopher://$G/1/~user/"
	[search-question]="gopher://$G/7/cgi-bin/search?hello"
)
for name in "${!pages36[@]}"; do
	url=${pages36[$name]}
	chrome --screenshot="$B/$name.png" "$GW/$url" >/dev/null
	[ -s "$B/$name.png" ] || fail "chromium wrote no $name.png"
	chrome --dump-dom "$GW/$url" >"$B/$name.html"
	timeout 60 lynx -dump -display_charset=utf-8 "$GW/$url" >"$B/lynx-$name.txt" || true
done
grep -q '<title>search WAIS database: demo</title>' "$B/wais-form.html" || fail "chromium: the WAIS form's title"
if grep -q 'href="/gopher://' "$B/wais-form.html"; then fail "chromium: the WAIS form links to gopher"; fi
grep -q 'rel="up"' "$B/wais-hits.html" && grep -q 'name="q" value="retrieval"' "$B/wais-hits.html" || fail "chromium: the WAIS hits page lacks its up link or search field"
grep -q '>The Internet Gopher</a></td><td class="size">147</td>' "$B/wais-hits.html" || fail "chromium: the WAIS hits page lacks a hit's headline and score"
grep -q 'title="35 bytes">35 B</td>' "$B/prospero-dir.html" || fail "chromium: the Prospero page lacks hello.txt's size"
grep -q "href=\"/prospero://$P/$PR/pub\"" "$B/prospero-refused.html" || fail "chromium: the refused Prospero name's page does not link the name under the root"
grep -q 'a<mark>%</mark>zz' "$B/error-escape.html" && grep -q "href=\"/gopher://$G/0/a%25zz\"" "$B/error-escape.html" || fail "chromium: the malformed escape's page lacks its mark or repaired link"
grep -q "href=\"/gopher://$G/1/%7Euser/\"" "$B/error-tilde.html" || fail "chromium: the ~ page lacks the repaired link"
grep -q "href=\"/gopher://$G/7/cgi-bin/search%09hello\"" "$B/search-question.html" || fail "chromium: the search item's page lacks the lenient reading's link"
# curl: one line of plain text, with the offset and the repaired URL.
expect_status 400 "$GW/gopher://$G/0/a%zz"
[ "$(wc -l <"$TMP/body")" = 1 ] && grep -q "offset .* try /gopher://$G/0/a%25zz" "$TMP/body" || fail "curl: the malformed escape's answer: $(cat "$TMP/body")"
# What net/http answers by itself is urlkit's too: no Host header (curl -H 'Host:' drops it).
expect_status 400 -H 'Host:' "$GW/"
grep -q '^urlkit gateway: 400 Bad Request: the request was refused before it reached the gateway: it has no Host header' "$TMP/body" || fail "curl: the answer without Host: $(cat "$TMP/body")"
# get --proxy prints what get prints.
for url in "gopher://$G/1/" "ftp://$F/pub/" "wais://$W/demo?retrieval" "prospero://$P/$PR/pub"; do
	"$TMP/urlkit" get -s "$url" >"$TMP/direct" || fail "urlkit get $url"
	"$TMP/urlkit" get -s --proxy "$GW" "$url" >"$TMP/via" || fail "urlkit get --proxy $url"
	cmp -s "$TMP/direct" "$TMP/via" || fail "urlkit get --proxy $url differs from urlkit get: $(diff "$TMP/direct" "$TMP/via" | head -5)"
done
log "issue 36 pages: ok ($((SECONDS - t36)) s; $(printf '%s.png ' "${!pages36[@]}")in $B)"
# <<< issue 36

# >>> issue 33: replayed pages in Chromium. urlkit get --warc captures a gopher menu, an ftp
# directory and a WAIS hit list from the daemons; urlkit serve --replay serves the capture back,
# dialling nothing, and headless Chromium shows each page with its replay banner (screenshots
# and DOM dumps in $OUT/replay, as for the live pages above). A few seconds.
R=$OUT/replay
mkdir -p "$R"
W=$URLKIT_WAIS_ADDR
rmenu="gopher://$G/1/"
rftpdir="ftp://$F/pub/"
rwais="wais://$W/demo?retrieval"
"$TMP/urlkit" get --warc "$R/capture" "$rmenu" "$rftpdir" "$rwais" || fail "get --warc: exit $?"
"$TMP/urlkit" serve --listen 127.0.0.1:0 --replay "$R/capture.warc.gz" 2>"$R/serve.log" &
REPLAYPID=$!
RGW=
for _ in $(seq 100); do
	RGW=$(sed -n 's#.*gateway on \(http://127\.0\.0\.1:[0-9]*\)/.*#\1#p' "$R/serve.log")
	[ -n "$RGW" ] && break
	sleep 0.1
done
[ -n "$RGW" ] || fail "urlkit serve --replay did not start: $(cat "$R/serve.log")"
for name in rmenu rftpdir rwais; do
	url=${!name}
	chrome --screenshot="$R/${name#r}.png" "$RGW/$url" >/dev/null
	[ -s "$R/${name#r}.png" ] || fail "chromium wrote no replayed ${name#r}.png"
	chrome --dump-dom "$RGW/$url" >"$R/${name#r}.html"
	grep -q 'class="replay"' "$R/${name#r}.html" || fail "chromium: the replayed $url has no banner"
done
grep -q "href=\"/gopher://$G/1/docs\">Docs directory</a>" "$R/menu.html" || fail "chromium: the replayed menu lacks the Docs link"
grep -q 'README' "$R/ftpdir.html" || fail "chromium: the replayed ftp directory lacks README"
grep -q 'The Internet Gopher' "$R/wais.html" || fail "chromium: the replayed WAIS hits lack their first hit"
chrome --screenshot="$R/front.png" "$RGW/" >/dev/null
chrome --dump-dom "$RGW/" >"$R/front.html"
grep -q "href=\"/gopher://$G/1/\"" "$R/front.html" || fail "chromium: the replay's front page does not link the captured menu"
expect_status 404 "$RGW/gopher://$G/0/never-captured"
grep -q 'not in the archive' "$TMP/body" || fail "curl: the replay's 404 does not say the URL is not in the archive"
kill "$REPLAYPID" && wait "$REPLAYPID" 2>/dev/null || true
REPLAYPID=
log "replay: ok (screenshots in $R)"
# <<< issue 33

# ---- the log: Common Log Format, no password ---------------------------------------
if grep -q "$URLKIT_FTP_PASSWORD" "$OUT/serve.log"; then fail "the log shows the ftp password"; fi
grep -q "$URLKIT_FTP_USER:xxxxx@" "$OUT/serve.log" || fail "the log lacks the masked login"
log "all gateway checks passed"
