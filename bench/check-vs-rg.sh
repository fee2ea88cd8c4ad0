#!/usr/bin/env bash
# check-vs-rg.sh: time `prosewash check` against ripgrep searching the same
# files for the same class of invisible carriers and against its own floor
# (bench/checkfloor: the same walker and reads, nothing done with the bytes),
# and compare peak memory, on two corpora measured in the same run.
#
# Usage: bench/check-vs-rg.sh [ROUNDS]     (default 7; also $ROUNDS)
#
# Corpora:
#   go+py  $(go env GOROOT)/src plus Python's standard library (the sysconfig
#          "stdlib" directory without site-packages, whose third-party
#          contents differ from machine to machine). Without python3 it is
#          GOROOT/src alone.
#   js/ts  the contents of a few large npm packages at pinned versions
#          (TypeScript's compiler and lib .d.ts files, React DOM, Angular's
#          core, three.js, lodash): minified bundles, ES modules, CommonJS,
#          .d.ts, source maps, JSON. Fetched once with `npm pack` (the
#          published tarballs, no dependencies resolved, so the bytes do not
#          drift) into the test tool cache outside the repository
#          ($PROSEWASH_TOOL_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/
#          prosewash-ci/tools). Without npm or the registry it is skipped
#          with a message.
#
# The three commands run in turn on each corpus (which goes first rotates
# with the round), and the corpora alternate too, after one untimed warm-up
# run of each command on each corpus, so that page cache state and
# background load affect all alike. Reported per corpus: the median wall
# and CPU (user + system) time of each command, the median peak RSS
# (/usr/bin/time %M), and the medians (and ranges) of the per-round ratios
# prosewash/rg (target <= 0.6) and prosewash/floor (target <= 1.2). On a
# loaded machine the wall times include waiting for a core; the CPU times
# say more then.
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

# --- corpora -----------------------------------------------------------------
# corpus_NAME holds each corpus's paths; names lists the corpora measured.
names=(go+py)
corpus_gopy=("$(go env GOROOT)/src")
label_gopy="GOROOT/src"
if pystd=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])' 2>/dev/null) && [ -d "$pystd" ]; then
	for entry in "$pystd"/*; do
		[ "$(basename "$entry")" = site-packages ] && continue
		corpus_gopy+=("$entry")
	done
	label_gopy="$label_gopy + $pystd (without site-packages)"
else
	echo "check-vs-rg: python3 not found: the go+py corpus is GOROOT/src only" >&2
fi

# The JS/TS corpus: published tarballs, pinned. Changing the list changes
# the cache key, so a stale corpus is never reused.
npm_pkgs=(typescript@6.0.3 react-dom@19.3.1 @angular/core@22.2.6 three@0.187.0 lodash@4.18.1)
cache_root=${PROSEWASH_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/prosewash-ci/tools}
js_dir="$cache_root/bench-npm-$(printf '%s\n' "${npm_pkgs[@]}" | sha256sum | cut -c1-16)"
fetch_js() {
	command -v npm >/dev/null || {
		echo "npm not found (apt-get install npm)"
		return 1
	}
	mkdir -p -m 700 "$cache_root" || return 1
	local part
	part=$(mktemp -d "$js_dir.part.XXXXXX") || return 1
	(
		cd "$part" &&
			npm pack --silent --pack-destination "$part" "${npm_pkgs[@]}" >/dev/null &&
			for tgz in *.tgz; do
				mkdir "${tgz%.tgz}" && tar -xzf "$tgz" -C "${tgz%.tgz}" && rm "$tgz" || exit 1
			done
	) 2>"$tmp/npm.err" || {
		rm -rf "$part"
		echo "npm pack failed: $(head -3 "$tmp/npm.err")"
		return 1
	}
	# Another run may have finished first; either copy is the same bytes.
	mv -T "$part" "$js_dir" 2>/dev/null || rm -rf "$part"
}
if [ -d "$js_dir" ] || why=$(fetch_js); then
	names+=(js/ts)
	corpus_jsts=("$js_dir")
	label_jsts="npm ${npm_pkgs[*]} (published tarballs)"
else
	echo "check-vs-rg: the js/ts corpus is NOT AVAILABLE: $why" >&2
fi

# key NAME: the variable-name suffix of a corpus (go+py -> gopy).
key() { tr -cd 'a-z' <<<"$1"; }

echo "rg:      rg ${rg_flags[*]} -e CARRIERS CORPUS..."
echo "check:   prosewash check --format json CORPUS..."
for name in "${names[@]}"; do
	declare -n paths="corpus_$(key "$name")" label="label_$(key "$name")"
	nfiles=$(rg --files "${rg_flags[@]}" "${paths[@]}" | wc -l)
	nbytes=$(rg --files -0 "${rg_flags[@]}" "${paths[@]}" | du -cb --files0-from=- | tail -1 | cut -f1)
	nmatches=$(rg "${rg_flags[@]}" -e "$carriers" "${paths[@]}" | awk -F: '{n += $NF} END {print n + 0}')
	printf '%-8s %s\n' "$name:" "$label"
	echo "         $nfiles files, $((nbytes / 1000000)) MB; rg counts $nmatches carriers"
	unset -n paths label
done

# --- prosewash and its floor -------------------------------------------------
check_ok=1
check_why=""
if ! (cd "$root" && CGO_ENABLED=0 go build -o "$tmp/prosewash" ./cmd/prosewash &&
	CGO_ENABLED=0 go build -o "$tmp/checkfloor" ./bench/checkfloor) 2>"$tmp/build.err"; then
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

# run NAME CMD...: one timed run; appends seconds to $tmp/NAME.wall, and
# with /usr/bin/time the peak RSS in KB to $tmp/NAME.rss and the CPU
# seconds (user + system) to $tmp/NAME.cpu.
run() {
	local name=$1 start end rc=0
	shift
	start=$(date +%s%N)
	if [ "$have_time" = 1 ]; then
		/usr/bin/time -f '%M %U %S' -o "$tmp/rss.one" "$@" >/dev/null 2>"$tmp/err.one" || rc=$?
	else
		"$@" >/dev/null 2>"$tmp/err.one" || rc=$?
	fi
	end=$(date +%s%N)
	# 0 = nothing found, 1 = carriers found; rg also says 2 when it met an
	# unreadable file (--no-messages hides which).
	if [ "$rc" -gt 2 ] || { [ "$rc" = 2 ] && [ "${name#*.}" != rg ]; }; then
		echo "check-vs-rg: $name failed (exit $rc): $(head -3 "$tmp/err.one")" >&2
		exit 2
	fi
	awk -v s="$start" -v e="$end" 'BEGIN {printf "%.4f\n", (e - s) / 1e9}' >>"$tmp/$name.wall"
	if [ "$have_time" = 1 ]; then
		tail -1 "$tmp/rss.one" | awk -v r="$tmp/$name.rss" -v c="$tmp/$name.cpu" '{print $1 >> r; printf "%.4f\n", $2 + $3 >> c}'
	fi
}

median() {
	sort -g "$1" | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# cmds NAME: set check_cmd, floor_cmd and rg_cmd for corpus NAME.
cmds() {
	declare -n paths="corpus_$(key "$1")"
	check_cmd=("$tmp/prosewash" check --format json "${paths[@]}")
	floor_cmd=("$tmp/checkfloor" "${paths[@]}")
	rg_cmd=(rg "${rg_flags[@]}" -e "$carriers" "${paths[@]}")
}

# Warm-up: fill the page cache, not measured.
for name in "${names[@]}"; do
	cmds "$name"
	if [ "$check_ok" = 1 ]; then
		"${check_cmd[@]}" >/dev/null 2>&1 || true
		"${floor_cmd[@]}" >/dev/null 2>&1 || true
	fi
	"${rg_cmd[@]}" >/dev/null 2>&1 || true
done
rm -f "$tmp"/*.wall "$tmp"/*.rss "$tmp"/*.cpu

# round NAME I: one round on corpus NAME, which tool goes first rotating
# with I.
round() {
	local k t
	k=$(key "$1")
	cmds "$1"
	if [ "$check_ok" = 0 ]; then
		run "$k.rg" "${rg_cmd[@]}"
		return
	fi
	local order=(check floor rg)
	for ((t = 0; t < 3; t++)); do
		case ${order[($2 + t) % 3]} in
		check) run "$k.check" "${check_cmd[@]}" ;;
		floor) run "$k.floor" "${floor_cmd[@]}" ;;
		rg) run "$k.rg" "${rg_cmd[@]}" ;;
		esac
	done
}

for ((i = 1; i <= rounds; i++)); do
	# Alternate which corpus goes first, too.
	if ((i % 2)); then
		for ((c = 0; c < ${#names[@]}; c++)); do round "${names[c]}" "$i"; done
	else
		for ((c = ${#names[@]} - 1; c >= 0; c--)); do round "${names[c]}" "$i"; done
	fi
done

na="n/a (no /usr/bin/time; apt-get install time)"
rss() {
	if [ "$have_time" = 1 ]; then
		awk '{printf "%.1f MB\n", $1 / 1024}' <<<"$(median "$tmp/$1.rss")"
	else
		echo "$na"
	fi
}
cpu() {
	if [ "$have_time" = 1 ]; then
		printf '%.3f s\n' "$(median "$tmp/$1.cpu")"
	else
		echo "n/a"
	fi
}

# ratio A B SUFFIX: the median (range) of the per-round ratios of A's to
# B's times in $tmp/A.SUFFIX and $tmp/B.SUFFIX.
ratio() {
	paste "$tmp/$1.$3" "$tmp/$2.$3" | awk '$2 > 0 {printf "%.4f\n", $1 / $2}' >"$tmp/ratio"
	printf '%s (%s)' "$(median "$tmp/ratio" | awk '{printf "%.2f", $1}')" \
		"$(sort -g "$tmp/ratio" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%.2f-%.2f", lo, hi}')"
}

echo
echo "rounds:  $rounds per corpus, tools rotating, corpora alternating, after one warm-up run each ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a))"
printf '%-8s %-18s %12s %12s   %s\n' corpus "" "median wall" "median CPU" "median peak RSS"
for name in "${names[@]}"; do
	k=$(key "$name")
	if [ "$check_ok" = 1 ]; then
		printf '%-8s %-18s %10.3f s %12s   %s\n' "$name" "prosewash check" "$(median "$tmp/$k.check.wall")" "$(cpu "$k.check")" "$(rss "$k.check")"
		printf '%-8s %-18s %10.3f s %12s   %s\n' "$name" "floor (walk+read)" "$(median "$tmp/$k.floor.wall")" "$(cpu "$k.floor")" "$(rss "$k.floor")"
	fi
	printf '%-8s %-18s %10.3f s %12s   %s\n' "$name" "rg" "$(median "$tmp/$k.rg.wall")" "$(cpu "$k.rg")" "$(rss "$k.rg")"
done
if [ "$check_ok" = 0 ]; then
	echo "prosewash check: not available, no ratio"
	exit 0
fi
echo "median ratio (range) per round, wall time:"
for name in "${names[@]}"; do
	k=$(key "$name")
	printf '  %-7s prosewash/rg %s (target <= 0.6), prosewash/floor %s (target <= 1.2)\n' "$name" \
		"$(ratio "$k.check" "$k.rg" wall)" "$(ratio "$k.check" "$k.floor" wall)"
done
if [ "$have_time" = 1 ]; then
	echo "median ratio (range) per round, CPU time:"
	for name in "${names[@]}"; do
		k=$(key "$name")
		printf '  %-7s prosewash/rg %s, prosewash/floor %s\n' "$name" \
			"$(ratio "$k.check" "$k.rg" cpu)" "$(ratio "$k.check" "$k.floor" cpu)"
	done
fi
