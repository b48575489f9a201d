#!/usr/bin/env bash
# Mutation check of the conformance oracles: plant each known bug in the
# core (build tag urlkit_mutate, URLKIT_MUTATION names the bug; see
# mutate_on.go) and require the named suites to fail. A suite that stays
# green under a planted bug is a bug, and this script fails CI.
#
# Each line of the table: the bug, then the TestNoWrong subtests (suite
# names with "_" for spaces, as `go test -v` prints them) that must fail.
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=./internal/conformance/
run() { URLKIT_MUTATION=$1 go test -count=1 -tags urlkit_mutate -run '^TestNoWrong$' -v "$pkg" 2>&1 || true; }

# With no bug planted, the tagged build passes: a failure below is the bug's.
out=$(run "")
if ! grep -q '^ok' <<<"$out"; then
	echo "mutate: the urlkit_mutate build fails with no bug planted:"
	echo "$out" | tail -20
	exit 1
fi

failed=0
while IFS='|' read -r bug suites; do
	[ -n "$bug" ] || continue
	out=$(run "$bug")
	if grep -q -e '\[build failed\]' -e '\[setup failed\]' -e '^panic:' <<<"$out"; then
		echo "mutate: $bug: the test did not run:"
		echo "$out" | tail -20
		failed=1
		continue
	fi
	IFS=';' read -ra want <<<"$suites"
	for s in "${want[@]}"; do
		if grep -qF -- "--- FAIL: TestNoWrong/$s " <<<"$out"; then
			echo "mutate: $bug: caught by $s"
		else
			echo "mutate: $bug: NOT caught by $s (the suite stayed green under a planted bug)"
			failed=1
		fi
	done
done <<'TABLE'
rfc3986-empty-authority|Oracle:_Python_urllib.parse.urljoin_(rfc3986_mode);Resolution:_python_test_urlparse_urljoin_in_rfc3986
rfc3986-keep-dots|Resolution:_python_test_urlparse_urljoin_in_rfc3986
host-underscore|Differential:_net/url_on_ada-url_datasets
port-letters|WHATWG_URL_(WPT_urltestdata.json)
TABLE
if [ "$failed" != 0 ]; then
	echo "mutate: FAILED"
	exit 1
fi
echo "mutate: every planted bug was caught"
