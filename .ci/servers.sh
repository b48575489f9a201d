#!/usr/bin/env bash
# Start real Debian daemons for the access package's tests, listening only on
# 127.0.0.1 on high ports, each serving content this script writes:
#   vsftpd      ftp     127.0.0.1:2121
#   gophernicus gopher  127.0.0.1:7070 (inetd-style, run under socat)
#   inn2 innd   nntp    127.0.0.1:1119 (readers handed to nnrpd after MODE READER)
# The ports, paths and expected content locations are written as shell
# variable assignments to $URLKIT_SERVERS_ENV (default /tmp/urlkit-servers.env),
# which the Go tests in access/ read. Safe to run more than once: running
# daemons started by an earlier run are stopped (by their recorded pid) first.
set -euo pipefail

BASE=${URLKIT_SERVERS_DIR:-/tmp/urlkit-servers}
ENVFILE=${URLKIT_SERVERS_ENV:-/tmp/urlkit-servers.env}
FTP_PORT=${URLKIT_FTP_PORT:-2121}
GOPHER_PORT=${URLKIT_GOPHER_PORT:-7070}
NNTP_PORT=${URLKIT_NNTP_PORT:-1119}
FTP_USER=urlkitftp
FTP_PASS=urlkit-secret-1

log() { printf 'servers.sh: %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
	log "must run as root (installs packages, starts vsftpd and innd)"
	exit 1
fi

# --- packages -------------------------------------------------------------
need=()
for p in vsftpd gophernicus inn2 socat; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	log "installing ${need[*]}"
	# Keep package scripts from starting the system-wide services: this script
	# starts its own instances on loopback with its own configuration.
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod +x /usr/sbin/policy-rc.d
		trap 'rm -f /usr/sbin/policy-rc.d' EXIT
	fi
	if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
		apt-get update -qq
	fi
	# inn2's postinst stops when the machine's name has no domain; give the
	# system inn.conf one first (the package then keeps the edited conffile).
	mkdir -p /etc/news
	if [ -f /etc/news/inn.conf ] && ! grep -q '^domain:' /etc/news/inn.conf; then
		echo 'domain: urlkit.test' >>/etc/news/inn.conf
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || {
		if [ -f /etc/news/inn.conf ] && ! grep -q '^domain:' /etc/news/inn.conf; then
			echo 'domain: urlkit.test' >>/etc/news/inn.conf
		fi
		DEBIAN_FRONTEND=noninteractive dpkg --configure -a >/dev/null
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
	}
fi

# --- stop what an earlier run started ---------------------------------------
stop_pidfile() {
	local f=$1 pid
	[ -f "$f" ] || return 0
	pid=$(tr -dc 0-9 <"$f" | head -c 12)
	# These are throw-away test daemons whose state is deleted next, so
	# SIGKILL is enough (innd takes many seconds over a SIGTERM shutdown).
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid" 2>/dev/null || true
		for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	fi
	rm -f "$f"
}
if [ -d "$BASE/run" ]; then
	for f in "$BASE"/run/*.pid; do stop_pidfile "$f"; done
fi
if [ -f "$BASE/inn/run/innd.pid" ]; then
	stop_pidfile "$BASE/inn/run/innd.pid"
fi
rm -rf "$BASE"
mkdir -p "$BASE/run" "$BASE/log"
chmod 755 "$BASE"

wait_port() { # name port
	local name=$1 port=$2
	for _ in $(seq 200); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		sleep 0.1
	done
	log "$name did not start listening on 127.0.0.1:$port within 20 s"
	return 1
}

# --- content -----------------------------------------------------------------
# The same text and binary files are served by ftp and gopher.
TEXT="$BASE/content/hello.txt"
BIN="$BASE/content/all256.bin"
mkdir -p "$BASE/content"
printf 'Hello from urlkit.\r\nSecond line.\n.\n..leading dots\nlast line\n' >"$TEXT"
# every byte value 0..255 once, in order
fmt=''
for i in {0..255}; do
	printf -v oct '\\%03o' "$i"
	fmt+=$oct
done
printf "$fmt" >"$BIN"
[ "$(stat -c %s "$BIN")" = 256 ] || { log "binary fixture is not 256 bytes"; exit 1; }

# --- vsftpd --------------------------------------------------------------------
FTPROOT="$BASE/ftp"
mkdir -p "$FTPROOT/pub/dir" "$BASE/vsftpd-empty"
cp "$TEXT" "$FTPROOT/pub/hello.txt"
cp "$BIN" "$FTPROOT/pub/all256.bin"
printf 'one\n' >"$FTPROOT/pub/dir/a.txt"
printf 'two\n' >"$FTPROOT/pub/dir/b.txt"
chmod -R a+rX,go-w "$FTPROOT"
chmod 555 "$FTPROOT" # vsftpd refuses a writable anonymous root
# A local account for the user:password tests.
if ! id "$FTP_USER" >/dev/null 2>&1; then
	useradd --system --no-create-home --home-dir "$FTPROOT" --shell /bin/sh "$FTP_USER"
fi
echo "$FTP_USER:$FTP_PASS" | chpasswd
cat >"$BASE/vsftpd.conf" <<CONF
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=$FTP_PORT
background=NO
anonymous_enable=YES
anon_root=$FTPROOT
no_anon_password=NO
local_enable=YES
local_root=$FTPROOT
write_enable=NO
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=30000
pasv_max_port=30100
port_enable=YES
connect_from_port_20=NO
seccomp_sandbox=NO
secure_chroot_dir=$BASE/vsftpd-empty
pam_service_name=vsftpd
vsftpd_log_file=$BASE/log/vsftpd.log
xferlog_enable=YES
xferlog_std_format=NO
log_ftp_protocol=YES
dual_log_enable=NO
syslog_enable=NO
use_localtime=NO
hide_ids=YES
CONF
chmod 600 "$BASE/vsftpd.conf"
: >"$BASE/log/vsftpd.log"
setsid vsftpd "$BASE/vsftpd.conf" </dev/null >>"$BASE/log/vsftpd.out" 2>&1 &
echo $! >"$BASE/run/vsftpd.pid"
wait_port vsftpd "$FTP_PORT"

# --- gophernicus (inetd-style: one process per connection, under socat) --------
GROOT="$BASE/gopher"
mkdir -p "$GROOT/docs"
cp "$TEXT" "$GROOT/hello.txt"
cp "$BIN" "$GROOT/all256.bin"
printf 'inner document\n' >"$GROOT/docs/inner.txt"
# A gophermap: TAB-separated type+display, selector, host, port (RFC 1436).
# Lines without a TAB are info text. Host and port left out default to ours.
{
	printf 'urlkit test menu\n'
	printf '0Hello text\t/hello.txt\n'
	printf '9All bytes\t/all256.bin\n'
	printf '1Docs directory\t/docs\n'
	printf '0Selector with space\t/a b.txt\t127.0.0.1\t%s\n' "$GOPHER_PORT"
	printf '1Elsewhere\t/x\texample.invalid\t70\n'
} >"$GROOT/gophermap"
printf 'spaced\n' >"$GROOT/a b.txt"
# Plain text without lines starting with "." (gophernicus does not dot-stuff).
printf 'Gopher plain text.\nSecond line\tafter a tab.\nThird line.\n' >"$GROOT/plain.txt"
chmod -R a+rX,go-w "$GROOT"
setsid socat "TCP-LISTEN:$GOPHER_PORT,bind=127.0.0.1,reuseaddr,fork" \
	"EXEC:/usr/sbin/gophernicus -h 127.0.0.1 -p $GOPHER_PORT -r $GROOT -nv -nf -nh -l $BASE/log/gophernicus.log,su=nobody" \
	</dev/null >>"$BASE/log/socat-gopher.out" 2>&1 &
echo $! >"$BASE/run/gopher.pid"
wait_port gophernicus "$GOPHER_PORT"
touch "$BASE/log/gophernicus.log"; chmod 666 "$BASE/log/gophernicus.log"

# --- inn2: innd with a private inn.conf (INNCONF) and all paths under $BASE/inn ----
INN="$BASE/inn"
NEWSGROUP=urlkit.test
mkdir -p "$INN"/{etc,db,log,run,tmp,spool/articles,spool/overview,spool/incoming/bad,spool/outgoing,spool/archive,spool/innfeed}
cp -a /etc/news/. "$INN/etc/"
sed -i -E \
	-e "s#^(patharchive|patharticles|pathdb|pathetc|pathincoming|pathlog|pathoutgoing|pathoverview|pathrun|pathspool|pathtmp|pathfilter|pathhttp):.*#\\1: XX_\\1#" \
	-e "s#^port:.*#port: $NNTP_PORT#" \
	-e "s#^nnrpdpostport:.*#nnrpdpostport: $NNTP_PORT#" \
	-e "s#^pathhost:.*#pathhost: urlkit.test#" \
	-e "s#^domain:.*#domain: urlkit.test#" \
	-e "s#^artcutoff:.*#artcutoff: 0#" \
	-e "s#^nnrpdloadlimit:.*#nnrpdloadlimit: 0#" \
	"$INN/etc/inn.conf"
sed -i \
	-e "s#XX_patharchive#$INN/spool/archive#" \
	-e "s#XX_patharticles#$INN/spool/articles#" \
	-e "s#XX_pathdb#$INN/db#" \
	-e "s#XX_pathetc#$INN/etc#" \
	-e "s#XX_pathincoming#$INN/spool/incoming#" \
	-e "s#XX_pathlog#$INN/log#" \
	-e "s#XX_pathoutgoing#$INN/spool/outgoing#" \
	-e "s#XX_pathoverview#$INN/spool/overview#" \
	-e "s#XX_pathrun#$INN/run#" \
	-e "s#XX_pathspool#$INN/spool#" \
	-e "s#XX_pathtmp#$INN/tmp#" \
	-e "s#XX_pathfilter#$INN/etc/filter#" \
	-e "s#XX_pathhttp#$INN/tmp#" \
	"$INN/etc/inn.conf"
grep -q '^domain:' "$INN/etc/inn.conf" || echo 'domain: urlkit.test' >>"$INN/etc/inn.conf"
# nnrpd refuses readers ("400 load at N, try later") above a load average of
# 16 by default; a busy CI machine reaches that, so the limit is off.
grep -q '^nnrpdloadlimit:' "$INN/etc/inn.conf" || echo 'nnrpdloadlimit: 0' >>"$INN/etc/inn.conf"
grep -q '^server:' "$INN/etc/inn.conf" || echo 'server: 127.0.0.1' >>"$INN/etc/inn.conf"
grep -q '^bindaddress:' "$INN/etc/inn.conf" || echo 'bindaddress: 127.0.0.1' >>"$INN/etc/inn.conf"
# No outgoing feeds, no control channel: just store what arrives.
printf 'ME:*::\n' >"$INN/etc/newsfeeds"
cat >"$INN/etc/incoming.conf" <<CONF
peer ME {
  hostname: "localhost, 127.0.0.1"
}
CONF
cat >"$INN/etc/readers.conf" <<CONF
auth "loopback" {
    hosts: "localhost, 127.0.0.1, stdin"
    default: "<loopback>"
}
access "loopback" {
    users: "<loopback>"
    newsgroups: "*"
    access: RPA
}
CONF
cat >"$INN/db/active" <<CONF
control 0000000000 0000000001 n
control.cancel 0000000000 0000000001 n
junk 0000000000 0000000001 n
$NEWSGROUP 0000000000 0000000001 y
urlkit.empty 0000000000 0000000001 y
CONF
: >"$INN/db/active.times"
printf '%s\tArticles for the urlkit access tests.\n' "$NEWSGROUP" >"$INN/db/newsgroups"
: >"$INN/db/history"
chown -R news:news "$INN"
export INNCONF="$INN/etc/inn.conf"
su -s /bin/sh news -c "INNCONF=$INNCONF /usr/lib/news/bin/makedbz -i -o" >/dev/null
# innd forks into the background itself unless -f; its pid file is $INN/run/innd.pid.
INNCONF=$INNCONF /usr/lib/news/bin/innd </dev/null >>"$BASE/log/innd.out" 2>&1 || {
	log "innd failed: $(tail -5 "$BASE/log/innd.out")"; exit 1; }
wait_port innd "$NNTP_PORT"

# Two articles, offered to innd with IHAVE over a plain TCP connection (this
# host is the peer "ME" in incoming.conf). The bodies are also written to
# $BASE/news/ so the tests compare against them.
mkdir -p "$BASE/news"
NOW=$(LC_ALL=C date -u '+%a, %d %b %Y %H:%M:%S +0000')
MSGID1="<art1.urlkit@urlkit.test>"
MSGID2="<art2.urlkit@urlkit.test>"
printf 'First article body.\r\n.leading dot line\r\nEnd of first.\r\n' >"$BASE/news/body1"
printf 'Second article body.\r\n' >"$BASE/news/body2"
make_article() { # msgid subject bodyfile
	printf 'Path: urlkit.test!not-for-mail\r\n'
	printf 'From: Urlkit Tests <tests@urlkit.test>\r\n'
	printf 'Newsgroups: %s\r\n' "$NEWSGROUP"
	printf 'Subject: %s\r\n' "$2"
	printf 'Date: %s\r\n' "$NOW"
	printf 'Message-ID: %s\r\n' "$1"
	printf '\r\n'
	cat "$3"
}
make_article "$MSGID1" "urlkit test one" "$BASE/news/body1" >"$BASE/news/article1"
make_article "$MSGID2" "urlkit test two" "$BASE/news/body2" >"$BASE/news/article2"
nntp_ihave() { # msgid articlefile
	local line
	exec 3<>"/dev/tcp/127.0.0.1/$NNTP_PORT"
	IFS= read -r -t 10 line <&3 # greeting
	printf 'IHAVE %s\r\n' "$1" >&3
	IFS= read -r -t 10 line <&3
	case $line in 335*) ;; *) log "IHAVE $1: $line"; exec 3>&-; return 1 ;; esac
	# dot-stuff lines that begin with "." (RFC 977 section 2.4.1)
	sed 's/^\./../' "$2" >&3
	printf '.\r\n' >&3
	IFS= read -r -t 10 line <&3
	printf 'QUIT\r\n' >&3
	exec 3>&-
	case $line in 235*) ;; *) log "IHAVE $1 transfer: $line"; return 1 ;; esac
}
nntp_ihave "$MSGID1" "$BASE/news/article1"
nntp_ihave "$MSGID2" "$BASE/news/article2"

cat >"$ENVFILE" <<ENV
URLKIT_SERVERS_DIR=$BASE
URLKIT_FTP_ADDR=127.0.0.1:$FTP_PORT
URLKIT_FTP_ROOT=$FTPROOT
URLKIT_FTP_LOG=$BASE/log/vsftpd.log
URLKIT_FTP_USER=$FTP_USER
URLKIT_FTP_PASSWORD=$FTP_PASS
URLKIT_GOPHER_ADDR=127.0.0.1:$GOPHER_PORT
URLKIT_GOPHER_ROOT=$GROOT
URLKIT_NNTP_ADDR=127.0.0.1:$NNTP_PORT
URLKIT_NNTP_GROUP=$NEWSGROUP
URLKIT_NNTP_EMPTY_GROUP=urlkit.empty
URLKIT_NNTP_MSGID1=$MSGID1
URLKIT_NNTP_MSGID2=$MSGID2
URLKIT_NNTP_DIR=$BASE/news
URLKIT_CONTENT_TEXT=$TEXT
URLKIT_CONTENT_BINARY=$BIN
ENV
chmod 644 "$ENVFILE"
log "ftp 127.0.0.1:$FTP_PORT, gopher 127.0.0.1:$GOPHER_PORT, nntp 127.0.0.1:$NNTP_PORT; environment in $ENVFILE"
