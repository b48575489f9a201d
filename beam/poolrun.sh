#!/usr/bin/env bash
# A cluster rehearsal on one machine: urlkit-beam submitted over Beam's
# portable API to Prism's job service, its workers in a worker pool (the Go
# SDK container's entry point, boot --worker_pool) that starts a worker
# process for each environment. With --read_envs=N the lines are read in N
# parts, each in an environment of its own, so N worker processes share
# them (see beam/internal/multienv).
#
#   bash beam/poolrun.sh DIR URLKIT-BEAM-FLAGS...
#   bash beam/poolrun.sh /tmp/w --read_envs=2 --input='/tmp/w/in/*' --output=/tmp/w/out
#
# DIR holds the binaries urlkit-beam, prism and container (in beam/:
# go build -o DIR/ tool ./cmd/urlkit-beam). The files the flags name must
# be absolute paths, under DIR or outside /tmp. Prism and the pool listen on every
# interface and boot writes to /tmp, so everything runs in namespaces of
# its own: network (only a loopback interface), mount (/tmp is
# DIR/.pool-tmp, removed at the end, with DIR seen at its own path) and
# process IDs, where this script is the init: every process started in
# there, the worker processes too, ends before it and is waited for, so
# their CPU time is in this script's (as /usr/bin/time reports it).
# Prism's and the pool's logs are left in DIR/pool-logs; the last lines on
# standard error say how many lines each worker process read.
set -euo pipefail
dir=$(cd "$1" && pwd)
shift
for a; do
	case $a in
	--input=/* | --input-warc=/* | --output=/* | --input=*://* | --input-warc=*://* | --output=*://*) ;;
	--input=* | --input-warc=* | --output=*)
		echo "poolrun.sh: ${a%%=*}: give an absolute path (the workers run in another directory)" >&2
		exit 2
		;;
	esac
done
if [ "${URLKIT_POOLRUN_INNER:-}" != 1 ]; then
	ns=(--net --mount --pid --fork --mount-proc)
	[ "$(id -u)" = 0 ] || ns+=(--user --map-root-user)
	rm -rf "$dir/.pool-tmp" "$dir/pool-logs"
	mkdir -p "$dir/.pool-tmp" "$dir/pool-logs"
	rc=0
	URLKIT_POOLRUN_INNER=1 unshare "${ns[@]}" bash "$0" "$dir" "$@" || rc=$?
	rm -rf "$dir/.pool-tmp"
	exit "$rc"
fi

# In the namespaces.
ip link set lo up
tmp=$dir/.pool-tmp
case $dir in
/tmp/*)
	mkdir -p "$tmp/${dir#/tmp/}"
	mount --bind "$dir" "$tmp/${dir#/tmp/}"
	;;
esac
mount --rbind "$tmp" /tmp
export TMPDIR=/tmp
cd "$dir/pool-logs"
"$dir/prism" --job_port=8073 --serve_http=false >prism.log 2>&1 &
"$dir/container" --worker_pool >pool.log 2>&1 &
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for port in 8073 50000; do
	for ((i = 0; i < 600; i++)); do
		listening "$port" && break
		sleep 0.1
	done
	listening "$port" || {
		echo "poolrun.sh: nothing listens on port $port after a minute" >&2
		tail -5 prism.log pool.log >&2
		exit 1
	}
done
rc=0
"$dir/urlkit-beam" --runner=universal --endpoint=localhost:8073 \
	--environment_type=EXTERNAL --environment_config=localhost:50000 "$@" || rc=$?
# Everything else in the namespace ends (the workers outlive their job
# until the pool stops), and is waited for.
kill -TERM -1 2>/dev/null || true
for ((i = 0; ; i++)); do
	procs=(/proc/[0-9]*)
	[ ${#procs[@]} -gt 1 ] || break
	[ "$i" -eq 100 ] && kill -KILL -1 2>/dev/null
	sleep 0.1
done
wait || true
# What each worker process read (the reading steps' log lines, in Prism's).
sed 's/\x1b\[[0-9;]*m//g' prism.log |
	grep -o 'part [0-9]* of [0-9]*: process [0-9]* read [0-9]* lines' |
	awk '{ n[$6] += $8; if (!seen[$6 " " $2]++) p[$6] = p[$6] " " $2 } END { for (w in n) printf "poolrun.sh: worker process %s read %d lines (part%s)\n", w, n[w], p[w] }' >&2 || true
exit "$rc"
