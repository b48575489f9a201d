#!/usr/bin/env bash
# Scaling of the link-set pipeline: urlkit-beam on the Prism runner, with
# GOMAXPROCS=1 and 2 (one and two cores for Prism and its in-process SDK
# worker), against `urlkit canon` on the same lines, for each size given
# (default 10^5, 10^6 and 10^7 lines). The input is the ada-url datasets in
# ../shared/corpora repeated to the size, in files of 100,000 lines (a link
# set comes as many files). Prints one Markdown table row per run: wall
# time, CPU time (user+system), CPU per line, the CPU time against canon's
# in the same run, records per second of wall time, peak RSS. The
# pipeline writes the default 16 shards; its distinct URLs (the union of
# the canonical shards) must be canon's, deduplicated.
#
#   bash beam/scale.sh                  # from the repository root
#   bash beam/scale.sh 100000 1000000   # smaller sizes only
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpora=${URLKIT_CORPORA:-$root/../shared/corpora}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000 10000000)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/urlkit" ./cmd/urlkit
(cd beam && go build -o "$work/urlkit-beam" ./cmd/urlkit-beam)
cat "$corpora"/ada-url-datasets/*.txt >"$work/all.txt"
have=$(wc -l <"$work/all.txt")

echo "| lines | program | wall s | CPU s | CPU µs/line | CPU / canon's | records/s (wall) | peak RSS MB |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
row() { # lines label timefile canon-cpu
	read -r wall cpu rss <"$3"
	awk -v n="$1" -v l="$2" -v w="$wall" -v c="$cpu" -v r="$rss" -v base="$4" \
		'BEGIN { printf "| %d | %s | %.1f | %.2f | %.2f | %.1fx | %.0f | %.0f |\n", n, l, w, c, c * 1e6 / n, c / base, n / w, r / 1024 }'
}
for n in "${sizes[@]}"; do
	d="$work/in-$n"
	mkdir -p "$d"
	reps=$(((n + have - 1) / have))
	set +o pipefail # cat meets a closed pipe once head has its lines
	for _ in $(seq "$reps"); do cat "$work/all.txt"; done | head -n "$n" | split -l 100000 -d -a 4 - "$d/part"
	set -o pipefail
	/usr/bin/time -f '%e %U %S %M' -o "$work/t" sh -c "cat '$d'/part* | '$work/urlkit' canon >'$work/canon.out' 2>/dev/null || true"
	awk '{ print $1, $2 + $3, $4 }' "$work/t" >"$work/t2"
	read -r _ canon_cpu _ <"$work/t2"
	row "$n" "urlkit canon (GOMAXPROCS=2)" "$work/t2" "$canon_cpu"
	for procs in 1 2; do
		rm -f "$work"/out-*
		GOMAXPROCS=$procs /usr/bin/time -f '%e %U %S %M' -o "$work/t" \
			"$work/urlkit-beam" --runner=prism --input="$d/part*" --output="$work/out" >/dev/null 2>"$work/beam.log" ||
			{ tail -20 "$work/beam.log"; exit 1; }
		awk '{ print $1, $2 + $3, $4 }' "$work/t" >"$work/t2"
		row "$n" "urlkit-beam, Prism, GOMAXPROCS=$procs" "$work/t2" "$canon_cpu"
		# The pipeline's distinct canonical URLs are canon's, deduplicated.
		if ! cmp -s <(LC_ALL=C sort -u "$work/canon.out") <(cat "$work"/out-canonical-*-of-*.txt | LC_ALL=C sort); then
			echo "scale.sh: the pipeline's distinct URLs differ from urlkit canon's at $n lines" >&2
			exit 1
		fi
	done
	rm -rf "$d"
done
