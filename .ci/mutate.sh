#!/usr/bin/env bash
# Mutation check of the test oracles: plant each known bug in a copy of the
# module in a temporary directory and require the named tests to fail there.
# The bugs, the code each one edits (found by pattern, not line number) and
# the tests that must catch it are listed in internal/testkit/mutate/mutants.txt; the
# production files carry no hook for them. A suite that stays green under a
# planted bug is a bug, and this script fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./internal/testkit/mutate/cmd/mutate "$@"
