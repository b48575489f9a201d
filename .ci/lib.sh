# shellcheck shell=bash
# Package installs for CI on a shared machine, sourced by .ci/run and the
# scripts it calls (servers.sh, gateway.sh; by hand too).
#
#   ci_apt_install PKG...     install what is missing, as below
#   ci_with_apt FUNC ARGS...  run FUNC (which calls apt-get or dpkg) the same way
#   ci_installed_report       print what this run installed (the manifest)
#
# Every install:
#   - waits for the apt/dpkg lock instead of failing when another apt holds
#     it (-o DPkg::Lock::Timeout, and a retry of `apt-get update` on its
#     lists lock), and says so in the log;
#   - runs under a lock of its own (flock on /run/lock/urlkit-ci-apt.lock),
#     so that two urlkit runs on one machine never install at once, with a
#     policy-rc.d that keeps package scripts from starting any service (put
#     there only when absent, removed only by the run that put it);
#   - shows apt's errors (the end of its output) when it fails;
#   - compares the machine before and after: every unit or init script link
#     the install enabled (a new symlink under /etc/systemd/system or
#     /etc/rc?.d) is removed again, and every configuration file under /etc
#     that existed before and was changed by a package script (inn2's
#     postinst appends to /etc/aliases) is put back as it was; files the new
#     packages bring are theirs and stay, as do the accounts they create
#     (passwd, group and shadow are never put back: other runs add their
#     own accounts meanwhile);
#   - lists the packages it installed, in the log and in the manifest
#     ($URLKIT_CI_MANIFEST, default /var/lib/urlkit-ci/installed), which
#     later runs read back (ci_installed_report).
# A change made by an unrelated process during the install (another apt)
# would be taken for the install's: the lock above excludes only urlkit's
# own runs.

CI_APT_LOCK_TIMEOUT=${CI_APT_LOCK_TIMEOUT:-900} # seconds to wait for the dpkg lock
URLKIT_CI_MANIFEST=${URLKIT_CI_MANIFEST:-/var/lib/urlkit-ci/installed}

ci_log() { printf 'ci: %s\n' "$*" >&2; }

# ci_installed_packages prints the installed packages, one a line, sorted.
ci_installed_packages() {
	dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' 2>/dev/null | awk '$2 ~ /^ii/ {print $1}' | LC_ALL=C sort
}

# ci_enabled_links prints the symlinks that enable units and init scripts.
ci_enabled_links() {
	find /etc/systemd/system /etc/rc0.d /etc/rc1.d /etc/rc2.d /etc/rc3.d /etc/rc4.d /etc/rc5.d /etc/rc6.d /etc/rcS.d \
		-xdev -type l 2>/dev/null | LC_ALL=C sort
}

# ci_etc_sums prints "md5  path" of the regular files under /etc, but those
# no install may have put back: the account files (other runs add theirs),
# the linker cache, this machinery's PAM services and policy-rc.d.
ci_etc_sums() {
	find /etc -xdev -type f ! -path '/etc/pam.d/urlkit-ftp-*' \
		! -name passwd ! -name 'passwd-' ! -name group ! -name 'group-' ! -name shadow ! -name 'shadow-' \
		! -name gshadow ! -name 'gshadow-' ! -name subuid ! -name subgid ! -name 'subuid-' ! -name 'subgid-' \
		! -name ld.so.cache -print0 2>/dev/null | xargs -0 -r md5sum | LC_ALL=C sort -k2
}

# ci_apt_get ARGS...: apt-get with the lock timeout, its output kept in
# $CI_APT_OUT and shown when it fails; waiting for the lock is reported.
ci_apt_get() {
	local rc=0
	DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$CI_APT_LOCK_TIMEOUT" "$@" >"$CI_APT_OUT" 2>&1 &
	local pid=$! said= holder
	while kill -0 "$pid" 2>/dev/null; do
		if [ -z "$said" ]; then
			# apt-get -qq does not always say it waits: ask who holds
			# dpkg's front-end lock (lslocks, util-linux).
			holder=$(ci_lock_holder "$pid")
			if [ -n "$holder" ]; then
				ci_log "apt-get $1: waiting (up to $CI_APT_LOCK_TIMEOUT s) for the apt/dpkg lock, held by $holder"
				said=1
			elif grep -q -i 'waiting for .*lock\|could not get lock' "$CI_APT_OUT" 2>/dev/null; then
				ci_log "apt-get $1: waiting for the apt/dpkg lock: $(grep -i -m1 'lock' "$CI_APT_OUT" | cut -c1-200)"
				said=1
			fi
		fi
		sleep 1
	done
	wait "$pid" || rc=$?
	if [ -n "$said" ]; then ci_log "apt-get $1: got the lock"; fi
	if [ "$rc" != 0 ]; then
		ci_log "apt-get $* failed (exit $rc); its output ends:"
		tail -n 40 "$CI_APT_OUT" | sed 's/^/  | /' >&2
	fi
	return "$rc"
}

# ci_lock_holder PID: the process other than PID holding dpkg's front-end
# lock or its lists lock, as "PID (COMMAND)", or nothing.
ci_lock_holder() {
	command -v lslocks >/dev/null || return 0
	lslocks -n -o PID,COMMAND,PATH 2>/dev/null |
		awk -v me="$1" '($3 == "/var/lib/dpkg/lock-frontend" || $3 == "/var/lib/apt/lists/lock") && $1 != me {print $1 " (" $2 ")"; exit}'
}

# ci_apt_update: apt-get update, retried while another process holds the
# lists lock (DPkg::Lock::Timeout covers the dpkg lock only), up to the
# same timeout.
ci_apt_update() {
	local start=$SECONDS
	while :; do
		if ci_apt_get update -qq; then return 0; fi
		if ! grep -q -i 'lock' "$CI_APT_OUT" || [ $((SECONDS - start)) -ge "$CI_APT_LOCK_TIMEOUT" ]; then return 1; fi
		ci_log "apt-get update: the package lists are locked by another process; retrying in 5 s"
		sleep 5
	done
}

# ci_with_apt FUNC ARGS...: run FUNC under urlkit's install lock with a
# policy-rc.d, then undo what it enabled and changed (see the top).
ci_with_apt() {
	local _ci_dir _ci_rc=0 _ci_own_policy=0 _ci_lockfd
	_ci_dir=$(mktemp -d /tmp/urlkit-ci-apt.XXXXXXXX)
	CI_APT_OUT=$_ci_dir/apt.out
	mkdir -p /run/lock
	exec {_ci_lockfd}>/run/lock/urlkit-ci-apt.lock
	if ! flock -n "$_ci_lockfd"; then
		ci_log "another urlkit run is installing packages; waiting for it"
		flock "$_ci_lockfd"
	fi
	ci_installed_packages >"$_ci_dir/pkgs.before"
	ci_enabled_links >"$_ci_dir/links.before"
	ci_etc_sums >"$_ci_dir/etc.before"
	# A copy of /etc as it is, to put back what a package script changes.
	tar -C / --one-file-system -cf "$_ci_dir/etc.tar" etc 2>/dev/null || true
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\n# urlkit CI: no service starts while it installs packages\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod +x /usr/sbin/policy-rc.d
		_ci_own_policy=1
	fi
	"$@" || _ci_rc=$?
	if [ "$_ci_own_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi

	# Units and init scripts the install enabled: disabled again.
	local _ci_link
	ci_enabled_links >"$_ci_dir/links.after"
	while IFS= read -r _ci_link; do
		[ -n "$_ci_link" ] || continue
		ci_log "disabling what the install enabled: $_ci_link -> $(readlink "$_ci_link")"
		rm -f "$_ci_link"
	done < <(LC_ALL=C comm -13 "$_ci_dir/links.before" "$_ci_dir/links.after")
	# Configuration files that existed and were changed: put back.
	local _ci_f
	ci_etc_sums >"$_ci_dir/etc.after"
	while IFS= read -r _ci_f; do
		[ -n "$_ci_f" ] || continue
		if tar -C "$_ci_dir" -xf "$_ci_dir/etc.tar" "${_ci_f#/}" 2>/dev/null; then
			cat "$_ci_dir/${_ci_f#/}" >"$_ci_f"
			ci_log "restored $_ci_f, which a package script changed"
		fi
	done < <(LC_ALL=C join -j 2 -o 1.1,1.2,2.1 "$_ci_dir/etc.before" "$_ci_dir/etc.after" | awk '$1 != $3 {print $2}')
	# What was installed: in the log and in the manifest.
	local _ci_new
	ci_installed_packages >"$_ci_dir/pkgs.after"
	_ci_new=$(LC_ALL=C comm -13 "$_ci_dir/pkgs.before" "$_ci_dir/pkgs.after" | tr '\n' ' ')
	if [ -n "$_ci_new" ]; then
		ci_log "installed by this run: $_ci_new"
		mkdir -p "$(dirname "$URLKIT_CI_MANIFEST")"
		printf '%s %s\n' "$(date -u +%FT%TZ)" "$_ci_new" >>"$URLKIT_CI_MANIFEST"
		if [ -n "${URLKIT_CI_RUN_MANIFEST:-}" ]; then printf '%s\n' "$_ci_new" >>"$URLKIT_CI_RUN_MANIFEST"; fi
	fi
	flock -u "$_ci_lockfd"
	exec {_ci_lockfd}>&-
	rm -rf "$_ci_dir"
	return "$_ci_rc"
}

# ci_apt_install PKG...: install the packages that are missing (without
# their recommendations), updating the package lists first when they are
# older than a day.
ci_apt_install() {
	local p need=()
	for p in "$@"; do
		dpkg-query -W -f='${db:Status-Abbrev}\n' "$p" 2>/dev/null | grep -q '^ii' || need+=("$p")
	done
	[ ${#need[@]} -gt 0 ] || return 0
	ci_log "installing ${need[*]}"
	ci_with_apt ci__install "${need[@]}"
}

ci__install() {
	if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
		ci_apt_update || return 1
	fi
	ci_apt_get install -y -qq --no-install-recommends "$@"
}

# ci_installed_report prints the manifest: what urlkit's runs have
# installed on this machine, and when.
ci_installed_report() {
	if [ -s "${URLKIT_CI_RUN_MANIFEST:-/nonexistent}" ]; then
		ci_log "packages this run installed: $(tr '\n' ' ' <"$URLKIT_CI_RUN_MANIFEST")"
	else
		ci_log "packages this run installed: none (all were there)"
	fi
	if [ -s "$URLKIT_CI_MANIFEST" ]; then
		ci_log "packages urlkit's CI runs have installed on this machine ($URLKIT_CI_MANIFEST; remove with apt-get purge):"
		sed 's/^/  | /' "$URLKIT_CI_MANIFEST" >&2
	fi
}
