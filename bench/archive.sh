#!/bin/sh
# Throughput and peak memory of the transcript archive on a generated 1 GiB Claude Code store,
# against tar | gzip -6 over the same store (see bench/archive-store). Needs go, tar, gzip and
# about 1.4 GiB of free space in $TMPDIR.
set -eu
cd "$(dirname "$0")/.."
exec go run ./bench/archive-store -bytes "${BYTES:-1073741824}" -sessions "${SESSIONS:-1000}" "$@"
