#!/usr/bin/env bash
# Checks .ci/lib.sh's clean-up without installing anything: a fake install
# enables a unit and an init script, changes an existing configuration file
# and adds a new one; ci_with_apt must disable the first two, put the file
# back and keep the new one. Run as root by .ci/run (it touches /etc, with
# names of its own, and removes them).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib.sh
. .ci/lib.sh
tag=urlkit-ci-libtest-$$
unit=/etc/systemd/system/multi-user.target.wants/$tag.service
rclink=/etc/rc2.d/S01$tag
conf=/etc/$tag.conf
newconf=/etc/$tag.new.conf
cleanup() { rm -f "$unit" "$rclink" "$conf" "$newconf"; }
trap cleanup EXIT
mkdir -p "$(dirname "$unit")" /etc/rc2.d
printf 'as it was\n' >"$conf"
fake_install() {
	ln -s /lib/systemd/system/$tag.service "$unit"
	ln -s ../init.d/$tag "$rclink"
	printf 'changed by a package script\n' >>"$conf"
	printf 'a new package file\n' >"$newconf"
}
URLKIT_CI_MANIFEST=$(mktemp) ci_with_apt fake_install 2>&1 | sed 's/^/  /'
fail=0
[ ! -L "$unit" ] || { echo "lib_test: $unit still enabled"; fail=1; }
[ ! -L "$rclink" ] || { echo "lib_test: $rc still enabled"; fail=1; }
[ "$(cat "$conf")" = "as it was" ] || { echo "lib_test: $conf not put back: $(cat "$conf")"; fail=1; }
[ -f "$newconf" ] || { echo "lib_test: $newconf, new with the install, was removed"; fail=1; }
[ ! -e /usr/sbin/policy-rc.d ] || grep -qv urlkit /usr/sbin/policy-rc.d || { echo "lib_test: policy-rc.d left"; fail=1; }
if [ "$fail" = 0 ]; then echo "lib_test: ci_with_apt disabled what it enabled and put back what it changed"; fi
exit "$fail"
