#!/usr/bin/env bash
# Start real Debian daemons for the access and CLI tests, listening only on
# 127.0.0.1, each serving content this script writes:
#   vsftpd      ftp
#   gophernicus gopher (inetd-style, run under socat)
#   inn2 innd   nntp   (readers handed to nnrpd after MODE READER)
#   waisserver  wais   (freeWAIS-sf, built from ../shared/servers/wais)
#   dirsrv      prospero, UDP (built from ../shared/servers/prospero)
#
#   bash .ci/servers.sh [start]   start them; print the environment file's name
#   bash .ci/servers.sh stop      stop what start started, delete the PAM
#                                 service, the directory and the environment
#                                 file
#
# Variables (all optional):
#   URLKIT_SERVERS_DIR  working directory (default: a new mktemp -d directory)
#   URLKIT_SERVERS_ENV  environment file the Go tests read (default: a new
#                       mktemp file); `stop` needs one of these two to find
#                       what to stop
#   URLKIT_FTP_PORT, URLKIT_GOPHER_PORT, URLKIT_NNTP_PORT, URLKIT_WAIS_PORT,
#   URLKIT_PROSPERO_PORT
#                       listening ports (default: free ports picked now)
#   URLKIT_SHARED_SERVERS  the servers' sources and scripts (default:
#                       ../shared/servers beside the repository)
#
# Every run makes its own FTP login as a virtual user of its own vsftpd (a
# random name and password in a file of the run's directory, checked by a
# PAM service of its own, the session run as the existing unprivileged
# "ftp" user): no system account is made, so nothing can be left in
# /etc/passwd, /etc/shadow or their backups. It uses its own ports and its
# own files, so runs on one machine do not collide and nothing is left
# behind by `stop` (which checks that the PAM service file is gone). Only processes whose pids this script
# recorded are ever signalled. Installing the packages never starts their
# system services, and their boot-time services are disabled.
set -euo pipefail

log() { printf 'servers.sh: %s\n' "$*" >&2; }

if [ "$(id -u)" != 0 ]; then
	log "must run as root (installs packages, adds a PAM service for its run, starts vsftpd and innd)"
	exit 1
fi

ACTION=${1:-start}
# >>> issue 23: the servers built from ../shared/servers (freeWAIS-sf, Prospero)
SHARED_SERVERS=${URLKIT_SHARED_SERVERS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/../shared/servers}
# <<< issue 23

# kill_group PID: SIGKILL the daemon PID and the process group it runs in
# (each daemon is started under setsid, so the group holds only it and its
# children: socat's per-connection gophernicus, innd's nnrpd). The pid must
# still belong to one of the programs this script starts, so a recycled pid
# is left alone. These are throw-away test daemons whose state is deleted
# next, so SIGKILL is enough (innd takes many seconds over a SIGTERM
# shutdown).
kill_group() {
	local pid=$1 pgid cmd
	[ -n "$pid" ] || return 0
	kill -0 "$pid" 2>/dev/null || return 0
	cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
	case $cmd in
	*vsftpd* | *socat* | *innd*) ;;
	*) log "pid $pid is no longer a daemon of ours ($cmd); not signalled"; return 0 ;;
	esac
	pgid=$(ps -o pgid= -p "$pid" 2>/dev/null | tr -dc 0-9)
	if [ -n "$pgid" ] && [ "$pgid" -gt 1 ] && [ "$pgid" != "$(ps -o pgid= -p $$ | tr -dc 0-9)" ]; then
		kill -9 -- "-$pgid" 2>/dev/null || true
	fi
	kill -9 "$pid" 2>/dev/null || true
	for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
}

# stop_dir DIR: stop the daemons recorded under DIR, remove the PAM service
# recorded there (and the account a run of an earlier version of this
# script made), then DIR itself. It fails when the PAM service file is
# still there.
stop_dir() {
	local dir=$1 f pid user pam
	if [ ! -d "$dir/run" ]; then
		# A start that failed before making its directories (while
		# installing packages) leaves the directory empty: remove it.
		rmdir "$dir" 2>/dev/null || true
		return 0
	fi
	# >>> issue 23: waisserver and dirsrv, each by the PID in its WORKDIR/server.pid
	# (stop.sh checks that the PID still runs that program, TERM then KILL, waits)
	for f in wais prospero; do
		if [ -f "$dir/$f/server.pid" ]; then
			bash "$SHARED_SERVERS/$f/stop.sh" "$dir/$f" || log "could not stop the $f server of $dir"
		fi
	done
	# <<< issue 23
	for f in "$dir"/run/*.pid "$dir"/inn/run/innd.pid; do
		[ -f "$f" ] || continue
		pid=$(tr -dc 0-9 <"$f" | head -c 12)
		kill_group "$pid"
		rm -f "$f"
	done
	if [ -f "$dir/run/ftp-user" ]; then
		user=$(tr -dc a-z0-9 <"$dir/run/ftp-user")
		case $user in
		ukftp*) if id "$user" >/dev/null 2>&1; then userdel "$user" 2>/dev/null || true; fi ;;
		esac
	fi
	if [ -f "$dir/run/pam-service" ]; then
		pam=$(tr -dc a-z0-9- <"$dir/run/pam-service")
		case $pam in
		urlkit-ftp-*)
			rm -f "/etc/pam.d/$pam"
			if [ -e "/etc/pam.d/$pam" ]; then
				log "could not remove /etc/pam.d/$pam"
				return 1
			fi
			;;
		esac
	fi
	rm -rf "$dir"
}

if [ "$ACTION" = stop ]; then
	dir=${URLKIT_SERVERS_DIR:-}
	if [ -z "$dir" ] && [ -n "${URLKIT_SERVERS_ENV:-}" ] && [ -f "$URLKIT_SERVERS_ENV" ]; then
		dir=$(sed -n 's/^URLKIT_SERVERS_DIR=//p' "$URLKIT_SERVERS_ENV" | head -n1)
	fi
	if [ -z "$dir" ]; then
		log "stop: set URLKIT_SERVERS_DIR or URLKIT_SERVERS_ENV to say which run to stop"
		exit 2
	fi
	stop_dir "$dir"
	if [ -n "${URLKIT_SERVERS_ENV:-}" ]; then rm -f "$URLKIT_SERVERS_ENV"; fi
	log "stopped the servers of $dir"
	exit 0
fi
if [ "$ACTION" != start ]; then
	log "usage: servers.sh [start|stop]"
	exit 2
fi

# --- packages -------------------------------------------------------------
# Installed through .ci/lib.sh: waiting for the apt/dpkg lock, no service
# started, every unit and init script the install enabled disabled again,
# every configuration file a package script changed put back, and what was
# installed listed (see lib.sh).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# install_inn2: inn2's postinst stops when the machine's name has no domain
# (innconfval: "hostname does not resolve or domain not set"). Rather than
# edit the system's /etc/news/inn.conf, the package is configured with
# INNCONF naming a copy of it with a domain (innconfval reads INNCONF), so
# the system's file stays as the package ships it.
install_inn2() {
	ci_apt_get install -y -qq --no-install-recommends inn2 && return 0
	[ -f /etc/news/inn.conf ] || return 1
	local conf
	conf=$(mktemp /tmp/urlkit-inn-conf.XXXXXXXX)
	cp /etc/news/inn.conf "$conf"
	grep -q '^domain:' "$conf" || echo 'domain: urlkit.test' >>"$conf"
	log "inn2's postinst needs a domain: configuring it with INNCONF=$conf"
	INNCONF=$conf ci_apt_get install -y -qq --no-install-recommends inn2
	local rc=$?
	rm -f "$conf"
	return $rc
}

# An earlier version of this script appended "domain: urlkit.test" to the
# system's inn.conf: take the line out again when that gives back the file
# the package ships (its md5 in dpkg's database).
heal_inn_conf() {
	local f=/etc/news/inn.conf want tmp
	[ -f "$f" ] && grep -qx 'domain: urlkit.test' "$f" || return 0
	# The file is inn2-inews's conffile (inn2 depends on it).
	want=$(dpkg-query -W -f='${Conffiles}\n' inn2-inews inn2 2>/dev/null | awk '$1 == "/etc/news/inn.conf" {print $2; exit}')
	tmp=$(mktemp)
	grep -vx 'domain: urlkit.test' "$f" >"$tmp" || true
	if [ -n "$want" ] && [ "$(md5sum <"$tmp" | cut -d' ' -f1)" = "$want" ]; then
		cat "$tmp" >"$f"
		log "restored $f as inn2 ships it (an earlier run had added a domain line)"
	fi
	rm -f "$tmp"
}

# db-util: db_load writes the Berkeley DB file of the FTP login that
# pam_userdb reads (issue 34: a virtual user, no system account).
ci_apt_install vsftpd gophernicus socat db-util
# The build tools of the servers built from ../shared/servers (issue 23's
# freeWAIS-sf and Prospero): installed here, through lib.sh, before their
# build scripts look for them.
ci_apt_install gcc make patch libc6-dev libcrypt-dev
if ! dpkg-query -W -f='${db:Status-Abbrev}\n' inn2 2>/dev/null | grep -q '^ii'; then
	log "installing inn2"
	ci_with_apt install_inn2
fi
heal_inn_conf

# --- this run's directory, ports and environment file ------------------------
if [ -n "${URLKIT_SERVERS_DIR:-}" ]; then
	BASE=$URLKIT_SERVERS_DIR
	stop_dir "$BASE" # what an earlier run with this directory left
	mkdir -p "$BASE"
else
	BASE=$(mktemp -d /tmp/urlkit-servers.XXXXXXXX)
fi
chmod 755 "$BASE"
mkdir -p "$BASE/run" "$BASE/log"
if [ -n "${URLKIT_SERVERS_ENV:-}" ]; then
	ENVFILE=$URLKIT_SERVERS_ENV
else
	ENVFILE=$(mktemp /tmp/urlkit-servers.XXXXXXXX.env)
fi

# If starting fails half-way, stop what was started and remove the PAM
# service.
started=0
cleanup_on_failure() {
	if [ "$started" != 1 ]; then
		log "start failed; stopping what this run started"
		stop_dir "$BASE"
		rm -f "$ENVFILE"
	fi
}
trap cleanup_on_failure EXIT

# port_free PORT: nothing accepts connections on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
taken=" "
# pick_port: a free port in 20000-29999 not yet chosen by this run.
pick_port() {
	local p
	for _ in $(seq 200); do
		p=$((20000 + RANDOM % 10000))
		case $taken in *" $p "*) continue ;; esac
		if port_free "$p"; then
			taken+="$p "
			echo "$p"
			return 0
		fi
	done
	log "no free port found in 20000-29999"
	return 1
}
FTP_PORT=${URLKIT_FTP_PORT:-$(pick_port)}
taken+="$FTP_PORT "
GOPHER_PORT=${URLKIT_GOPHER_PORT:-$(pick_port)}
taken+="$GOPHER_PORT "
NNTP_PORT=${URLKIT_NNTP_PORT:-$(pick_port)}
taken+="$NNTP_PORT "
for p in "$FTP_PORT" "$GOPHER_PORT" "$NNTP_PORT"; do
	if ! port_free "$p"; then
		log "port $p on 127.0.0.1 is already in use"
		exit 1
	fi
done
# vsftpd's passive data ports: a per-run range of 100 in 30000-59999.
PASV_MIN=$((30000 + (RANDOM % 300) * 100))
PASV_MAX=$((PASV_MIN + 99))

# This run's FTP login: a random name and password, a virtual user of this
# run's vsftpd only.
FTP_USER=ukftp$(head -c 64 /dev/urandom | tr -dc a-z0-9 | head -c 8)
FTP_PASS=$(head -c 256 /dev/urandom | tr -dc A-Za-z0-9 | head -c 24)
PAM_SERVICE=urlkit-ftp-${FTP_USER#ukftp}

wait_port() { # name port pid
	local name=$1 port=$2 pid=${3:-}
	for _ in $(seq 200); do
		if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
			log "$name exited before listening on 127.0.0.1:$port"
			return 1
		fi
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
# >>> issue 22: files the gateway's pages are tried on: a README without an
# extension (shown as text, not downloaded), Latin-1 text (declared
# windows-1252, not utf-8), a file large enough for a size in MiB.
printf 'A read-me file without an extension.\nThe gateway shows it as text.\n' >"$FTPROOT/pub/README"
printf 'Caf\351 cr\350me, na\357ve gar\347on: Latin-1 text (ISO-8859-1).\n' >"$FTPROOT/pub/latin1.txt"
head -c 1572864 /dev/zero >"$FTPROOT/pub/big.bin"
# <<< issue 22
chmod -R a+rX,go-w "$FTPROOT"
chmod 555 "$FTPROOT" # vsftpd refuses a writable anonymous root
# The login for the user:password tests: a virtual user (vsftpd's
# guest_enable), its name and password in a Berkeley DB file of this run's
# directory that pam_userdb reads, through a PAM service of this run's own
# (PAM reads services only from /etc/pam.d: the one file this script puts
# under /etc, recorded so that `stop` or a failed start deletes it). The
# session runs as "ftp", the unprivileged user the vsftpd package made for
# anonymous ftp. No account is added to /etc/passwd or /etc/shadow.
GUEST_USER=ftp
id "$GUEST_USER" >/dev/null 2>&1 || GUEST_USER=nobody
(
	umask 077
	printf '%s\n%s\n' "$FTP_USER" "$FTP_PASS" >"$BASE/ftp-login.txt"
	db_load -T -t hash -f "$BASE/ftp-login.txt" "$BASE/ftp-login.db"
	rm -f "$BASE/ftp-login.txt"
)
echo "$PAM_SERVICE" >"$BASE/run/pam-service"
cat >"/etc/pam.d/$PAM_SERVICE" <<PAM
# urlkit CI ($BASE): deleted by .ci/servers.sh stop
auth    required pam_userdb.so db=$BASE/ftp-login
account required pam_userdb.so db=$BASE/ftp-login
session required pam_permit.so
PAM
# vsftpd's own list: only anonymous and this run's user may log in.
printf 'anonymous\nftp\n%s\n' "$FTP_USER" >"$BASE/vsftpd.users"
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
guest_enable=YES
guest_username=$GUEST_USER
write_enable=NO
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=$PASV_MIN
pasv_max_port=$PASV_MAX
port_enable=YES
connect_from_port_20=NO
seccomp_sandbox=NO
secure_chroot_dir=$BASE/vsftpd-empty
pam_service_name=$PAM_SERVICE
userlist_enable=YES
userlist_deny=NO
userlist_file=$BASE/vsftpd.users
check_shell=NO
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
wait_port vsftpd "$FTP_PORT" "$(cat "$BASE/run/vsftpd.pid")"

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
# >>> issue 22: Latin-1 text, info-line art (aligned only in a monospace
# block), and a search item (type 7) answered by a script in cgi-bin, which
# gophernicus runs with the search string in SEARCHREQUEST.
cp "$FTPROOT/pub/latin1.txt" "$GROOT/latin1.txt"
mkdir -p "$GROOT/cgi-bin"
cat >"$GROOT/cgi-bin/search" <<SCRIPT
#!/bin/sh
term=\$(printf '%s' "\$SEARCHREQUEST" | tr -d '\\t\\r\\n')
printf 'iResults for "%s"\\tfake\\t(NULL)\\t0\\r\\n' "\$term"
printf '0Hello text (matches "%s")\\t/hello.txt\\t127.0.0.1\\t$GOPHER_PORT\\r\\n' "\$term"
SCRIPT
chmod 755 "$GROOT/cgi-bin/search"
{
	printf '0Latin-1 text\t/latin1.txt\n'
	printf '7Search the test server\t/cgi-bin/search\n'
	printf '  +------+------+\n'
	printf '  | left | right|\n'
	printf '  +------+------+\n'
} >>"$GROOT/gophermap"
# <<< issue 22
# Plain text without lines starting with "." (gophernicus does not dot-stuff).
printf 'Gopher plain text.\nSecond line\tafter a tab.\nThird line.\n' >"$GROOT/plain.txt"
chmod -R a+rX,go-w "$GROOT"
# -no (issue 22): files are sent as they are stored, as old gopher servers
# send them (gophernicus would otherwise convert Latin-1 text to UTF-8).
setsid socat "TCP-LISTEN:$GOPHER_PORT,bind=127.0.0.1,reuseaddr,fork" \
	"EXEC:/usr/sbin/gophernicus -h 127.0.0.1 -p $GOPHER_PORT -r $GROOT -nv -nf -nh -no -l $BASE/log/gophernicus.log,su=nobody" \
	</dev/null >>"$BASE/log/socat-gopher.out" 2>&1 &
echo $! >"$BASE/run/gopher.pid"
wait_port gophernicus "$GOPHER_PORT" "$(cat "$BASE/run/gopher.pid")"
touch "$BASE/log/gophernicus.log"; chmod 666 "$BASE/log/gophernicus.log"

# >>> issue 24: the same vsftpd and gophernicus on the IPv6 loopback [::1], for
# the IPv6 literal hosts of the extended syntax (ftp://[::1]:PORT/...). A
# second vsftpd (one listener serves one address family: listen_ipv6 with
# listen_address6=::1) with its own log, and a second socat listener for
# gophernicus, whose menus name [::1] and this port for their own items.
# Skipped, and the variables left out (the tests then say so), when the
# machine has no IPv6 loopback.
port_free6() { ! (exec 3<>"/dev/tcp/::1/$1") 2>/dev/null; }
if [ -r /proc/net/if_inet6 ] && grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6; then
	FTP6_PORT=$(pick_port)
	while ! port_free6 "$FTP6_PORT"; do FTP6_PORT=$(pick_port); done
	GOPHER6_PORT=$(pick_port)
	while ! port_free6 "$GOPHER6_PORT"; do GOPHER6_PORT=$(pick_port); done
	sed -e 's/^listen=YES$/listen=NO/' -e 's/^listen_ipv6=NO$/listen_ipv6=YES/' \
		-e 's/^listen_address=127.0.0.1$/listen_address6=::1/' -e "s/^listen_port=.*/listen_port=$FTP6_PORT/" \
		-e "s#^vsftpd_log_file=.*#vsftpd_log_file=$BASE/log/vsftpd6.log#" "$BASE/vsftpd.conf" >"$BASE/vsftpd6.conf"
	chmod 600 "$BASE/vsftpd6.conf"
	: >"$BASE/log/vsftpd6.log"
	setsid vsftpd "$BASE/vsftpd6.conf" </dev/null >>"$BASE/log/vsftpd6.out" 2>&1 &
	echo $! >"$BASE/run/vsftpd6.pid"
	# socat's EXEC address cannot hold "::1" (":" separates its options):
	# a script runs gophernicus with it.
	printf '#!/bin/sh\nexec /usr/sbin/gophernicus -h ::1 -p %s -r %s -nv -nf -nh -no -l %s\n' \
		"$GOPHER6_PORT" "$GROOT" "$BASE/log/gophernicus.log" >"$BASE/gophernicus6.sh"
	chmod 755 "$BASE/gophernicus6.sh"
	setsid socat "TCP6-LISTEN:$GOPHER6_PORT,bind=[::1],reuseaddr,fork" \
		"EXEC:$BASE/gophernicus6.sh,su=nobody" \
		</dev/null >>"$BASE/log/socat-gopher6.out" 2>&1 &
	echo $! >"$BASE/run/gopher6.pid"
	for _ in $(seq 200); do
		if ! port_free6 "$FTP6_PORT" && ! port_free6 "$GOPHER6_PORT"; then break; fi
		sleep 0.1
	done
	if port_free6 "$FTP6_PORT" || port_free6 "$GOPHER6_PORT"; then
		log "vsftpd or gophernicus did not start listening on [::1] ($FTP6_PORT, $GOPHER6_PORT) within 20 s"
		exit 1
	fi
	IPV6_ENV="URLKIT_FTP6_ADDR=[::1]:$FTP6_PORT
URLKIT_FTP6_LOG=$BASE/log/vsftpd6.log
URLKIT_GOPHER6_ADDR=[::1]:$GOPHER6_PORT"
else
	log "no IPv6 loopback (::1): vsftpd and gophernicus listen on 127.0.0.1 only"
	IPV6_ENV=""
fi
# <<< issue 24

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
# nnrpd refuses readers ("400 load at N, try later") above nnrpdloadlimit
# (16 by default), which a busy 2-core CI machine can reach: no limit here.
if grep -q '^nnrpdloadlimit:' "$INN/etc/inn.conf"; then
	sed -i 's/^nnrpdloadlimit:.*/nnrpdloadlimit: 0/' "$INN/etc/inn.conf"
else
	echo 'nnrpdloadlimit: 0' >>"$INN/etc/inn.conf"
fi
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
INNCONF=$INNCONF setsid /usr/lib/news/bin/innd </dev/null >>"$BASE/log/innd.out" 2>&1 || {
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

# >>> issue 23: freeWAIS-sf (waisserver, TCP) and the Prospero dirsrv (UDP), built
# from ../shared/servers into this run's directory and started with their own
# scripts; stop_dir stops them by PID. Extra test data beside the demo data:
# database "big" (documents of 65535, 131072 and 150001 bytes, for the chunked
# retrieval), and in the Prospero tree binary files, a 360 KB file and
# directories of 100 and 300 entries (replies of 14 and 41 ARDP packets).
udp_free() { ! grep -qi "^ *[0-9]*: 0100007F:$(printf '%04X' "$1") " /proc/net/udp; }
WAIS_PORT=${URLKIT_WAIS_PORT:-$(pick_port)}
taken+="$WAIS_PORT "
PROSPERO_PORT=${URLKIT_PROSPERO_PORT:-}
if [ -z "$PROSPERO_PORT" ]; then
	for _ in $(seq 200); do
		PROSPERO_PORT=$((20000 + RANDOM % 10000))
		case $taken in *" $PROSPERO_PORT "*) continue ;; esac
		udp_free "$PROSPERO_PORT" && break
	done
fi
taken+="$PROSPERO_PORT "
# The two builds run side by side (each is mostly one compiler at a time).
build_start=$SECONDS
bash "$SHARED_SERVERS/wais/build.sh" "$BASE/wais-prefix" >"$BASE/log/build-wais.out" 2>&1 &
wais_build=$!
bash "$SHARED_SERVERS/prospero/build.sh" "$BASE/prospero-prefix" >"$BASE/log/build-prospero.out" 2>&1 &
prospero_build=$!
build_failed=
wait "$wais_build" || build_failed+=" wais"
wait "$prospero_build" || build_failed+=" prospero"
for b in $build_failed; do
	log "building $b from $SHARED_SERVERS failed: $(tail -5 "$BASE/log/build-$b.out")"
done
[ -z "$build_failed" ] || exit 1
log "built freeWAIS-sf and Prospero from $SHARED_SERVERS in $((SECONDS - build_start)) s"
bash "$SHARED_SERVERS/wais/start.sh" "$BASE/wais-prefix" "$BASE/wais" "$WAIS_PORT"
mkdir -p "$BASE/wais/bigdocs"
make_doc() { # file bytes title: the title line, then numbered lines, cut to size
	{ printf '%s\n' "$3"; seq -f 'line %08.0f of a long WAIS test document, retrieval in chunks' 1 4000; } >"$1.all"
	head -c "$(($2 - 1))" "$1.all" >"$1"
	printf '\n' >>"$1"
	rm -f "$1.all"
}
make_doc "$BASE/wais/bigdocs/one.txt" 65535 'One byte short of a chunk'
make_doc "$BASE/wais/bigdocs/exact.txt" 131072 'Exactly two chunks'
make_doc "$BASE/wais/bigdocs/odd.txt" 150001 'One hundred fifty thousand and one'
"$BASE/wais-prefix/bin/waisindex" -d "$BASE/wais/index/big" -t first_line "$BASE"/wais/bigdocs/*.txt >"$BASE/log/waisindex-big.log" 2>&1 ||
	{ log "waisindex of the big documents failed: $(tail -3 "$BASE/log/waisindex-big.log")"; exit 1; }
bash "$SHARED_SERVERS/prospero/start.sh" "$BASE/prospero-prefix" "$BASE/prospero" "$PROSPERO_PORT"
PROOT="$BASE/prospero/root"
cp "$BIN" "$PROOT/pub/all256.bin"
head -c 270000 /dev/urandom | base64 >"$PROOT/pub/large.txt"
mkdir -p "$PROOT/pub/many" "$PROOT/pub/several"
for i in $(seq 1 300); do printf 'entry %d\n' "$i" >"$PROOT/pub/many/entry-with-a-long-name-number-$i.txt"; done
for i in $(seq 1 100); do printf 'entry %d\n' "$i" >"$PROOT/pub/several/entry-with-a-long-name-number-$i.txt"; done
printf "it's a name with spaces\n" >"$PROOT/pub/it's spaced.txt"
# <<< issue 23

cat >"$ENVFILE" <<ENV
URLKIT_SERVERS_DIR=$BASE
URLKIT_FTP_ADDR=127.0.0.1:$FTP_PORT
URLKIT_FTP_ROOT=$FTPROOT
URLKIT_FTP_LOG=$BASE/log/vsftpd.log
URLKIT_FTP_USER=$FTP_USER
URLKIT_FTP_PASSWORD=$FTP_PASS
URLKIT_FTP_PORT=$FTP_PORT
URLKIT_GOPHER_PORT=$GOPHER_PORT
URLKIT_NNTP_PORT=$NNTP_PORT
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
URLKIT_WAIS_ADDR=127.0.0.1:$WAIS_PORT
URLKIT_WAIS_PREFIX=$BASE/wais-prefix
URLKIT_WAIS_DOCS=$BASE/wais/docs
URLKIT_WAIS_BIGDOCS=$BASE/wais/bigdocs
URLKIT_PROSPERO_ADDR=127.0.0.1:$PROSPERO_PORT
URLKIT_PROSPERO_PREFIX=$BASE/prospero-prefix
URLKIT_PROSPERO_ROOT=$PROOT
ENV
# >>> issue 24: the [::1] listeners, when there are
if [ -n "$IPV6_ENV" ]; then printf '%s\n' "$IPV6_ENV" >>"$ENVFILE"; fi
# <<< issue 24
chmod 600 "$ENVFILE" # it holds the FTP password
# Run by hand under sudo, the tests run as the invoking user: let them read it.
if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
	chown "$SUDO_USER" "$ENVFILE"
fi
started=1
trap - EXIT
log "ftp 127.0.0.1:$FTP_PORT, gopher 127.0.0.1:$GOPHER_PORT, nntp 127.0.0.1:$NNTP_PORT, wais 127.0.0.1:$WAIS_PORT, prospero 127.0.0.1:$PROSPERO_PORT/udp; environment in $ENVFILE"
log "run the tests with URLKIT_SERVERS_ENV=$ENVFILE; stop with URLKIT_SERVERS_ENV=$ENVFILE bash .ci/servers.sh stop"
echo "$ENVFILE"
