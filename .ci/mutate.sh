#!/usr/bin/env bash
# Mutation check of the test oracles: plant each known bug (build tag
# urlkit_mutate; URLKIT_MUTATION names the bug, see mutate_on.go and
# scheme/mutate_on.go) and require the named suites to fail. A suite that
# stays green under a planted bug is a bug, and this script fails CI.
#
# Each line of the table: the bug | the package | the tests that must fail,
# separated by ";" and named as `go test -v` prints them after "--- FAIL: "
# (subtests with "_" for spaces).
set -euo pipefail
cd "$(dirname "$0")/.."

run() { URLKIT_MUTATION=$1 go test -count=1 -tags urlkit_mutate -v "$2" 2>&1 || true; }

TABLE='
rfc3986-empty-authority|./internal/conformance/|TestNoWrong/Oracle:_Python_urllib.parse.urljoin_(rfc3986_mode);TestNoWrong/Resolution:_python_test_urlparse_urljoin_in_rfc3986
rfc3986-keep-dots|./internal/conformance/|TestNoWrong/Resolution:_python_test_urlparse_urljoin_in_rfc3986
host-underscore|./internal/conformance/|TestNoWrong/Differential:_net/url_on_ada-url_datasets;TestNoWrong/curl_URL_API_(lib1560_parse_rows)
port-letters|./internal/conformance/|TestNoWrong/WHATWG_URL_(WPT_urltestdata.json)
ftp-skip-empty-cwd|./internal/conformance/|TestNoWrong/curl_ftp/gopher_tests_(dialogues)
ftp-skip-empty-cwd|./scheme/|TestCorpusCurlFTP
'
# The vector scans run only on amd64 with AVX2: elsewhere their planted bug
# is in code that never runs.
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && [ "$(go env GOARCH)" = amd64 ]; then
	TABLE+='vector-host-pairs|./|TestFastPathEdges;TestParseAgreesWithOldParser
'
fi

# With no bug planted, the tagged build of every package named passes: a
# failure below is the planted bug's.
for pkg in $(awk -F'|' 'NF==3{print $2}' <<<"$TABLE" | sort -u); do
	out=$(run "" "$pkg")
	if ! grep -q '^ok' <<<"$out"; then
		echo "mutate: $pkg fails in the urlkit_mutate build with no bug planted:"
		echo "$out" | tail -20
		exit 1
	fi
done

failed=0
while IFS='|' read -r bug pkg tests; do
	[ -n "$bug" ] || continue
	out=$(run "$bug" "$pkg")
	if grep -q -e '\[build failed\]' -e '\[setup failed\]' -e '^panic:' <<<"$out"; then
		echo "mutate: $bug: the tests of $pkg did not run:"
		echo "$out" | tail -20
		failed=1
		continue
	fi
	IFS=';' read -ra want <<<"$tests"
	for t in "${want[@]}"; do
		if grep -qF -- "--- FAIL: $t " <<<"$out"; then
			echo "mutate: $bug: caught by $pkg $t"
		else
			echo "mutate: $bug: NOT caught by $pkg $t (it stayed green under a planted bug)"
			failed=1
		fi
	done
done <<<"$TABLE"
if [ "$failed" != 0 ]; then
	echo "mutate: FAILED"
	exit 1
fi
echo "mutate: every planted bug was caught"
