#!/bin/sh
# prosewash clean (and the Claude Code Stop hook in automatic mode) on 20, 200 and 2,000 small
# files against the floor of a durable atomic replace of the same files, in one run: per-file
# time, ratio to the floor, peak RSS and the growth between sizes (bench/clean-floor). Builds
# the static binary the README installs. RUNS (default 1) repeats each measurement.
#
#   bench/clean.sh [-sizes 20,200,2000] [-stop-sizes 200,2000] [-runs N]
set -eu
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CGO_ENABLED=0 go build -o "$work/prosewash" ./cmd/prosewash
go build -o "$work/clean-floor" ./bench/clean-floor
"$work/clean-floor" -prosewash "$work/prosewash" "$@"
