#!/usr/bin/env bash
# Scaling of the link-set pipeline: urlkit-beam on the Prism runner, with
# GOMAXPROCS=1 and 2 (one and two cores for Prism and its in-process SDK
# worker), against `urlkit canon` on the same lines, for each size given
# (default 10^6 and 10^7 lines) and each input:
#
#   repeated  the ada-url datasets in ../shared/corpora repeated to the size:
#             whatever the size, about 100,000 distinct canonical URLs;
#   distinct  the same lines, each with a path segment of its own inserted
#             after its authority (beam/internal/distinct): every line with
#             an authority is a different canonical URL, as in a crawl's
#             link set.
#
# The input is written in files of 100,000 lines (a link set comes as many
# files) under $SCALE_TMP (default /tmp), and removed after each size.
# canon runs before and after the pipeline runs, and the pipeline's CPU
# time is given against the mean of the two. Each program starts with the
# input in the page cache (read once before it, not measured: the
# pipeline drops the pages of its input as it reads them, and canon's
# second run would read from disk). SCALE_ROUNDS (default 1) runs each
# pipeline that many times, a row each. Prints one Markdown table row
# per run: the input with its distinct share (distinct canonical URLs per
# line, from the pipeline's summary), wall time, CPU time (user+system),
# CPU per line, the CPU and wall time against canon's, peak RSS and the
# load average at the end of the run (the machine may be shared: CPU time
# is what load changes least). The pipeline writes the default 16 shards;
# its distinct URLs (the union of the canonical shards) must be canon's,
# deduplicated (checked with sort up to SCALE_CHECK_MAX lines, default
# 10^7; above, the number of distinct URLs against the input's).
#
#   bash beam/scale.sh                      # from the repository root
#   bash beam/scale.sh 100000 1000000       # smaller sizes only
#   SCALE_INPUTS=distinct SCALE_PROCS=2 bash beam/scale.sh 100000000
#   SCALE_PROFILE=/tmp/prof bash beam/scale.sh 10000000   # CPU profiles (go tool pprof -top)
#   SCALE_INPUTS=distinct SCALE_PROCS=2 SCALE_ROUNDS=3 bash beam/scale.sh 10000000 100000000
#
# >>> issue 38: worker pool
# SCALE_PROCS may name "pool": the cluster rehearsal, the job submitted to
# Prism's job service with its lines read by two worker processes of an
# external worker pool (beam/poolrun.sh, --read_envs=2), its CPU time that
# of all the processes: launcher, Prism, pool, boot and workers.
#   SCALE_INPUTS=distinct SCALE_PROCS='2 pool' bash beam/scale.sh 1000000
# <<< issue 38
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
corpora=${URLKIT_CORPORA:-$root/../shared/corpora}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000)
read -r -a inputs <<<"${SCALE_INPUTS:-repeated distinct}"
read -r -a procs <<<"${SCALE_PROCS:-1 2}"
check_max=${SCALE_CHECK_MAX:-10000000}

work=$(mktemp -d "${SCALE_TMP:-/tmp}/urlkit-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -o "$work/urlkit" ./cmd/urlkit
(cd beam && go build -o "$work/urlkit-beam" ./cmd/urlkit-beam && go build -o "$work/gen" ./internal/distinct/gen)
[[ " ${procs[*]} " != *" pool "* ]] || (cd beam && go build -o "$work/" tool) # issue 38: prism, container (boot)

echo "| lines | input (distinct share) | program | wall s | CPU s | CPU µs/line | CPU / canon's | wall / canon's | peak RSS MB | load |"
echo "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|"
# measure OUT CMD...: runs CMD under /usr/bin/time; OUT gets "wall cpu rss load".
# It returns CMD's exit status (the caller's || sees a failure: set -e does
# not act inside a function called there).
measure() {
	local out=$1 status=0
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" || status=$?
	read -r w u s m < <(tail -n 1 "$work/t") || {
		echo "scale.sh: no time measured for: $* (is the disk full?)" >&2
		return 1
	}
	echo "$w $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') $m $(cut -d' ' -f1 /proc/loadavg)" >"$out"
	return "$status"
}
row() { # lines input label file canon-wall canon-cpu
	read -r wall cpu rss load <"$4"
	awk -v n="$1" -v inp="$2" -v l="$3" -v w="$wall" -v c="$cpu" -v r="$rss" -v ld="$load" -v bw="$5" -v bc="$6" \
		'BEGIN { printf "| %d | %s | %s | %.1f | %.2f | %.3f | %.2fx | %.2fx | %.0f | %s |\n", n, inp, l, w, c, c * 1e6 / n, c / bc, w / bw, r / 1024, ld }'
}
warm() { cat "$1"/part* >/dev/null; } # dir: its files in the page cache
canon() { # dir out lines
	warm "$1"
	measure "$2" sh -c "cat '$1'/part* | GOMAXPROCS=2 '$work/urlkit' canon >'$work/canon.out' 2>/dev/null || true"
	# Above SCALE_CHECK_MAX its output is not compared: it leaves the disk
	# to the pipeline's files (at 10^8 lines 6.5 GB of it).
	[ "$3" -le "$check_max" ] || rm -f "$work/canon.out"
}
for n in "${sizes[@]}"; do
	for input in "${inputs[@]}"; do
		d="$work/in"
		rm -rf "$d"
		flag=()
		[ "$input" = distinct ] && flag=(-distinct)
		"$work/gen" -n "$n" "${flag[@]}" -dir "$d" "$corpora"/ada-url-datasets/*.txt
		canon "$d" "$work/c1" "$n"
		rows=()
		for p in $(for p in "${procs[@]}"; do for r in $(seq "${SCALE_ROUNDS:-1}"); do echo "$p"; done; done); do
			rm -rf "$work"/out-*
			warm "$d"
			rows+=("$p")
			b="$work/b${#rows[@]}"
			prof=()
			[ -n "${SCALE_PROFILE:-}" ] && mkdir -p "$SCALE_PROFILE" && prof=(--cpuprofile="$SCALE_PROFILE/$input-$n-p$p-${#rows[@]}.prof")
			run=(env GOMAXPROCS="$p" "$work/urlkit-beam" --runner=prism)
			[ "$p" = pool ] && run=(bash beam/poolrun.sh "$work" --read_envs=2) prof=() # issue 38
			measure "$b" "${run[@]}" --input="$d/part*" --output="$work/out" "${prof[@]}" \
				>/dev/null 2>"$work/beam.log" || { tail -20 "$work/beam.log"; exit 1; }
			if [ "$p" = pool ] && [ "$(grep -c '^poolrun.sh: worker process' "$work/beam.log")" != 2 ]; then # issue 38
				echo "scale.sh: the pool's run at $n $input lines was not read by two worker processes" >&2
				tail -20 "$work/beam.log" >&2
				exit 1
			fi
			distinct=$(awk -F'\t' '$1 == "distinct canonical" { print $2 }' "$work/out-summary.txt")
			# The pipeline's distinct canonical URLs are canon's, deduplicated.
			if [ "$n" -le "$check_max" ]; then
				if ! cmp -s <(LC_ALL=C sort -u "$work/canon.out") <(cat "$work"/out-canonical-*-of-*.txt | LC_ALL=C sort); then
					echo "scale.sh: the pipeline's distinct URLs differ from urlkit canon's at $n $input lines" >&2
					exit 1
				fi
			elif [ "$(cat "$work"/out-canonical-*-of-*.txt | wc -l)" != "$distinct" ]; then
				echo "scale.sh: the canonical shards do not hold the summary's $distinct URLs at $n $input lines" >&2
				exit 1
			fi
		done
		rm -rf "$work"/out-* # the disk is canon's again (at 10^8 lines the outputs are 6.5 GB)
		canon "$d" "$work/c2" "$n"
		read -r cw1 cc1 cr1 _ <"$work/c1"
		read -r cw2 cc2 cr2 _ <"$work/c2"
		cw=$(awk -v a="$cw1" -v b="$cw2" 'BEGIN { print (a + b) / 2 }')
		cc=$(awk -v a="$cc1" -v b="$cc2" 'BEGIN { print (a + b) / 2 }')
		share=$(awk -v d="$distinct" -v n="$n" 'BEGIN { printf "%.1f%%", 100 * d / n }')
		row "$n" "$input ($share)" "urlkit canon (GOMAXPROCS=2), before" "$work/c1" "$cw" "$cc"
		for i in "${!rows[@]}"; do
			p=${rows[$i]}
			label="urlkit-beam, Prism, GOMAXPROCS=$p"
			[ "$p" = pool ] && label="urlkit-beam, Prism job service, 2 pool workers" # issue 38
			row "$n" "$input ($share)" "$label" "$work/b$((i + 1))" "$cw" "$cc"
		done
		row "$n" "$input ($share)" "urlkit canon (GOMAXPROCS=2), after" "$work/c2" "$cw" "$cc"
		rm -rf "$d"
	done
done
