#!/usr/bin/env bash
# check-vs-rg.sh: time `prosewash check` against ripgrep searching the same
# files for the same class of invisible carriers, and compare peak memory.
#
# Usage: bench/check-vs-rg.sh [ROUNDS]     (default 7; also $ROUNDS)
#
# Corpus: $(go env GOROOT)/src plus Python's standard library (the sysconfig
# "stdlib" directory without site-packages, whose third-party contents differ
# from machine to machine). Without python3 the corpus is GOROOT/src alone.
#
# The two commands run alternately, after one untimed warm-up run each, so
# that page cache state and background load affect both alike. Reported:
# the median wall time of each, the median of the per-round ratios
# prosewash/rg (target <= 1.0), and the median peak RSS (/usr/bin/time %M).
#
# ripgrep flags, chosen so that both tools read the same files:
#   --hidden            prosewash does not skip dot files; rg does by default
#   -g '!.git'          prosewash skips .git; rg 13 searches it under --hidden
#   --no-ignore-dot     prosewash honours git's ignore files only; rg also
#                       reads .ignore and .rgignore
#   --max-filesize 64M  prosewash's default size limit (walk.DefaultMaxSize)
# Both honour .gitignore, .git/info/exclude and core.excludesFile inside git
# work trees only, skip binary files (NUL byte) and do not follow symlinks.
# --count-matches makes rg count every carrier, not stop at the first one per
# line; output goes to /dev/null for both.
set -euo pipefail

rounds=${1:-${ROUNDS:-7}}
case $rounds in '' | *[!0-9]* | 0)
	echo "check-vs-rg: ROUNDS must be a positive integer, not '$rounds'" >&2
	exit 2
	;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The carrier class as a Rust regex: C0 controls except tab/LF/CR, DEL and
# C1 (U+0085 NEL included), exotic spaces, zero-width and bidi characters,
# line/paragraph separators, word joiner and invisible operators, the other
# default-ignorables (Hangul fillers, Mongolian selectors, ...), variation
# selectors, interlinear annotation specials and tag characters (the whole
# U+E0000-E0FFF default-ignorable block, variation selectors 17-256 included).
carriers='[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\xA0\xAD\x{034F}\x{061C}\x{115F}\x{1160}\x{1680}\x{17B4}\x{17B5}\x{180B}-\x{180F}\x{2000}-\x{200F}\x{2028}-\x{202F}\x{205F}-\x{206F}\x{3000}\x{3164}\x{FE00}-\x{FE0F}\x{FEFF}\x{FFA0}\x{FFF0}-\x{FFF8}\x{1BCA0}-\x{1BCA3}\x{1D173}-\x{1D17A}\x{E0000}-\x{E0FFF}]'
rg_flags=(--hidden -g '!.git' --no-ignore-dot --max-filesize 64M --count-matches --no-messages)

command -v rg >/dev/null || {
	echo "check-vs-rg: rg (ripgrep) not found; install it (apt-get install ripgrep)" >&2
	exit 2
}
command -v go >/dev/null || {
	echo "check-vs-rg: go not found" >&2
	exit 2
}

# --- corpus ------------------------------------------------------------------
corpus=("$(go env GOROOT)/src")
label="GOROOT/src"
if pystd=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null) && [ -d "$pystd" ]; then
	for entry in "$pystd"/*; do
		[ "$(basename "$entry")" = site-packages ] && continue
		corpus+=("$entry")
	done
	label="$label + $pystd (without site-packages)"
else
	echo "check-vs-rg: python3 not found: the corpus is GOROOT/src only" >&2
fi
nfiles=$(rg --files "${rg_flags[@]}" "${corpus[@]}" | wc -l)
nbytes=$(rg --files -0 "${rg_flags[@]}" "${corpus[@]}" | du -cb --files0-from=- | tail -1 | cut -f1)
nmatches=$(rg "${rg_flags[@]}" -e "$carriers" "${corpus[@]}" | awk -F: '{n += $NF} END {print n + 0}')
echo "corpus:  $label"
echo "         $nfiles files, $((nbytes / 1000000)) MB; rg counts $nmatches carriers"
echo "rg:      rg ${rg_flags[*]} -e CARRIERS CORPUS..."
echo "check:   prosewash check --format json CORPUS..."

# --- prosewash ---------------------------------------------------------------
check_ok=1
check_why=""
if ! (cd "$root" && CGO_ENABLED=0 go build -o "$tmp/prosewash" ./cmd/prosewash) 2>"$tmp/build.err"; then
	check_ok=0
	check_why="build failed: $(head -1 "$tmp/build.err")"
else
	mkdir "$tmp/probe"
	printf 'plain text\n' >"$tmp/probe/a.txt"
	rc=0
	"$tmp/prosewash" check --format json "$tmp/probe" >/dev/null 2>"$tmp/probe.err" || rc=$?
	if [ "$rc" -gt 1 ]; then
		check_ok=0
		check_why="exit $rc: $(head -1 "$tmp/probe.err")"
	fi
fi
if [ "$check_ok" = 0 ]; then
	echo
	echo "prosewash check is NOT AVAILABLE ($check_why)."
	echo "Timing the rg side only; no ratio is reported."
fi

# --- timing ------------------------------------------------------------------
have_time=0
[ -x /usr/bin/time ] && have_time=1

# run NAME CMD...: one timed run; appends seconds to $tmp/NAME.wall and the
# peak RSS in KB to $tmp/NAME.rss.
run() {
	local name=$1 start end rc=0
	shift
	start=$(date +%s%N)
	if [ "$have_time" = 1 ]; then
		/usr/bin/time -f %M -o "$tmp/rss.one" "$@" >/dev/null 2>"$tmp/err.one" || rc=$?
	else
		"$@" >/dev/null 2>"$tmp/err.one" || rc=$?
	fi
	end=$(date +%s%N)
	# 0 = nothing found, 1 = carriers found; rg also says 2 when it met an
	# unreadable file (--no-messages hides which).
	if [ "$rc" -gt 2 ] || { [ "$rc" = 2 ] && [ "$name" != rg ]; }; then
		echo "check-vs-rg: $name failed (exit $rc): $(head -3 "$tmp/err.one")" >&2
		exit 2
	fi
	awk -v s="$start" -v e="$end" 'BEGIN {printf "%.4f\n", (e - s) / 1e9}' >>"$tmp/$name.wall"
	if [ "$have_time" = 1 ]; then
		tail -1 "$tmp/rss.one" >>"$tmp/$name.rss"
	fi
}

median() {
	sort -g "$1" | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

check_cmd=("$tmp/prosewash" check --format json "${corpus[@]}")
rg_cmd=(rg "${rg_flags[@]}" -e "$carriers" "${corpus[@]}")

# Warm-up: fill the page cache, not measured.
[ "$check_ok" = 1 ] && { "${check_cmd[@]}" >/dev/null 2>&1 || true; }
"${rg_cmd[@]}" >/dev/null 2>&1 || true
rm -f "$tmp"/*.wall "$tmp"/*.rss

for ((i = 1; i <= rounds; i++)); do
	if [ "$check_ok" = 1 ]; then
		# Alternate which tool goes first.
		if ((i % 2)); then
			run check "${check_cmd[@]}"
			run rg "${rg_cmd[@]}"
		else
			run rg "${rg_cmd[@]}"
			run check "${check_cmd[@]}"
		fi
	else
		run rg "${rg_cmd[@]}"
	fi
done

rss() {
	if [ "$have_time" = 1 ]; then
		awk '{printf "%.1f MB\n", $1 / 1024}' <<<"$(median "$tmp/$1.rss")"
	else
		echo "n/a (no /usr/bin/time; apt-get install time)"
	fi
}

echo
echo "rounds:  $rounds, alternating, after one warm-up run each ($(nproc) CPUs)"
printf '%-18s %12s   %s\n' "" "median wall" "median peak RSS"
if [ "$check_ok" = 1 ]; then
	printf '%-18s %10.3f s   %s\n' "prosewash check" "$(median "$tmp/check.wall")" "$(rss check)"
fi
printf '%-18s %10.3f s   %s\n' "rg" "$(median "$tmp/rg.wall")" "$(rss rg)"
if [ "$check_ok" = 1 ]; then
	paste "$tmp/check.wall" "$tmp/rg.wall" | awk '{printf "%.4f\n", $1 / $2}' >"$tmp/ratio"
	echo "median ratio prosewash/rg: $(median "$tmp/ratio" | awk '{printf "%.2f", $1}') (target <= 1.0)"
else
	echo "prosewash check: not available, no ratio"
fi
