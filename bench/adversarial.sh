#!/usr/bin/env bash
# adversarial.sh: `prosewash check` on inputs built to make a classifier
# superlinear, at two sizes, to show that time stays linear in the input and
# peak memory bounded by the largest file, not by the tree.
#
# Usage: bench/adversarial.sh [MB] [ROUNDS]   (largest size, default 5 MB; 3 rounds)
#
# Inputs, each with one zero width space in a comment so that check
# classifies the file (it classifies only files holding a carrier):
#   rust-nested.rs     block comments nested to depth ~size/6 (/* /* /* ...)
#   yaml-anchors.yaml  an anchor on every line (~100k at 2.6 MB and more),
#                      then one flow sequence of aliases to all of them
#   shell-oneline.sh   one line of `echo a;` commands, size bytes long
#   bundle.min.js      one line of minified-style JavaScript (regexes after
#                      return, divisions, templates, object literals)
#   md-*.md            the Markdown shapes of
#                      internal/engine/region/testdata/adversarial/markdown.jsonl
#                      (nested list markers, block quotes, brackets, emphasis
#                      and backtick runs), one file each, the carrier in it
# Each runs alone at size/4 and at size; reported are the median wall time
# per MB at both, their ratio (1.0 is linear; a quadratic classifier would
# show 4), the peak RSS (/usr/bin/time %M) and what it adds over check on
# an empty directory, against the file's size. Last, the whole tree (every
# input at full size, twice) in one run: its peak RSS is compared with the
# largest single file's.
set -euo pipefail

mb=${1:-5}
rounds=${2:-3}
case $mb$rounds in *[!0-9]*)
	echo "adversarial: MB and ROUNDS must be positive integers" >&2
	exit 2
	;;
esac
[ "$mb" -ge 1 ] && [ "$rounds" -ge 1 ] || {
	echo "adversarial: MB and ROUNDS must be positive integers" >&2
	exit 2
}
command -v python3 >/dev/null || {
	echo "adversarial: python3 is needed to generate the inputs" >&2
	exit 2
}
[ -x /usr/bin/time ] || {
	echo "adversarial: /usr/bin/time is needed for peak memory (apt-get install time)" >&2
	exit 2
}

root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/prosewash" ./cmd/prosewash)
pw=$tmp/prosewash

# gen DIR BYTES: writes the inputs, each about BYTES long, into DIR.
gen() {
	mkdir -p "$1"
	python3 - "$1" "$2" "$root/internal/engine/region/testdata/adversarial/markdown.jsonl" <<'PY'
import os, sys
d, size = sys.argv[1], int(sys.argv[2])
zwsp = "\u200b"
def write(name, text):
    with open(os.path.join(d, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)
depth = size // 6
write("rust-nested.rs", "/* " * depth + "deep" + zwsp + " note" + " */" * depth + "\nfn main() {}\n")
lines, n = [], 0
total = 0
while total < size * 0.6:
    line = f"k{n}: &a{n} v{n}\n"
    lines.append(line); total += len(line); n += 1
aliases = "all: [" + ", ".join(f"*a{i}" for i in range(n)) + "]\n"
write("yaml-anchors.yaml", "# anchors" + zwsp + " and aliases\n" + "".join(lines) + aliases)
unit = "echo a; "
write("shell-oneline.sh", "#!/bin/sh\n" + unit * (size // len(unit)) + "# one line" + zwsp + "\n")
parts, total, i = [], 0, 0
while total < size:
    p = (f"function f{i}(a,b){{if(!a)return/x\\/y[/]/g.test(b)?{{k:\"s{i}\",v:a/2/b}}:[b,'q',`t${{a/2}}`];"
         f"for(var i=0;i<a.length;i++)b+=a[i]<<2;return b}}var o{i}={{a:1,b:function(){{return this.a/2}},c:/*#__PURE__*/g(/re/)}};")
    parts.append(p); total += len(p); i += 1
write("bundle.min.js", "".join(parts) + "/* end" + zwsp + " */\n")
import json
with open(sys.argv[3], encoding="utf-8") as shapes:
    for line in shapes:
        if not line.strip() or line.startswith("#"):
            continue
        name, head, unit, middle, tail = json.loads(line)
        k = max(size - len(head) - len(middle), 0) // (len(unit) + len(tail))
        write("md-" + name.replace(" ", "-") + ".md", head + unit * k + middle + tail * k)
print(n, file=sys.stderr)
PY
}

full=$((mb * 1000000))
gen "$tmp/small" $((full / 4)) 2>/dev/null
anchors=$( { gen "$tmp/large" "$full" 2>&1 >/dev/null; } | tail -1)
mkdir "$tmp/tree"
for f in "$tmp"/large/*; do
	cp "$f" "$tmp/tree/"
	cp "$f" "$tmp/tree/copy-$(basename "$f")"
done
mkdir "$tmp/empty"

# measure PATH: median wall seconds and peak RSS KB of check over rounds.
measure() {
	local walls=() rsss=() s e
	for ((r = 0; r < rounds; r++)); do
		s=$(date +%s%N)
		/usr/bin/time -f %M -o "$tmp/rss" "$pw" check --format json "$1" >"$tmp/out.json" 2>"$tmp/err" || [ $? = 1 ] || {
			echo "adversarial: check failed on $1: $(head -3 "$tmp/err")" >&2
			exit 2
		}
		e=$(date +%s%N)
		walls+=("$(((e - s) / 1000))")
		rsss+=("$(tail -1 "$tmp/rss")")
	done
	printf '%s\n' "${walls[@]}" | sort -n | awk '{v[NR] = $1} END {printf "%.4f ", v[int((NR + 1) / 2)] / 1e6}'
	printf '%s\n' "${rsss[@]}" | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}

# what PATH: the region and action check gives the one carrier of PATH.
what() {
	"$pw" check "$1" 2>/dev/null | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^(remove|replace|report|keep)$/) { print $(i - 1), $i; exit } }' 
}

read -r _ base < <(measure "$tmp/empty")
echo "prosewash check on adversarial input: $rounds rounds each, median; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "baseline: check on an empty directory peaks at $((base / 1024)) MB RSS"
echo "yaml-anchors.yaml at full size holds $anchors anchors"
echo
printf '| %-26s | %-17s | %9s | %9s | %6s | %11s | %-15s |\n' input sizes "s/MB" "s/MB" growth "RSS - base" "carrier"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "----------------------------" "-------------------" "-----------" "-----------" "--------" "-------------" "-----------------"
largest_rss=0
for f in "$tmp"/large/*; do
	name=$(basename "$f")
	sb=$(stat -c %s "$tmp/small/$name")
	lb=$(stat -c %s "$f")
	read -r sw _ < <(measure "$tmp/small/$name")
	read -r lw lr < <(measure "$f")
	[ "$lr" -gt "$largest_rss" ] && largest_rss=$lr
	awk -v n="$name" -v sb="$sb" -v lb="$lb" -v sw="$sw" -v lw="$lw" -v lr="$lr" -v base="$base" -v w="$(what "$f")" 'BEGIN {
		a = sw / (sb / 1e6); b = lw / (lb / 1e6)
		printf "| %-26s | %5.2f -> %5.2f MB | %9.4f | %9.4f | %5.2fx | %+6.1f MB    | %-15s |\n", n, sb / 1e6, lb / 1e6, a, b, b / a, (lr - base) / 1024, w
	}'
done
read -r tw tr < <(measure "$tmp/tree")
tb=$(du -cb "$tmp"/tree/* | tail -1 | cut -f1)
echo
awk -v tw="$tw" -v tr="$tr" -v tb="$tb" -v lr="$largest_rss" -v base="$base" 'BEGIN {
	printf "whole tree (each input twice, %.1f MB): %.3f s, peak RSS %.1f MB (+%.1f MB over empty); the largest single file alone: %.1f MB (+%.1f MB)\n", tb / 1e6, tw, tr / 1024, (tr - base) / 1024, lr / 1024, (lr - base) / 1024
}'
