#!/usr/bin/env bash
# Whole-process wall time of the Claude Code hooks an agent session pays
# for (post-tool-use after every write, session-start, a stop with nothing
# to do), and of Codex's post-tool-use, against `git rev-parse HEAD` in the
# same repository. Targets: post-tool-use within 1.5x of git, session-start
# and stop within 2x. The CPU time (user + system) is printed beside the
# wall time: on a loaded machine it says more. A static Go program
# that only prints (Go's own start-up) is timed beside them as the floor
# of any Go binary. Runs alternate, each command once per round, and the
# median is reported. Prints the ratios and the heaviest package
# initialisers (GODEBUG=inittrace=1) and, with valgrind, the instructions
# each executes.
#
#   bench/hooks.sh [RUNS]
#
# PROSEWASH_BIN=PATH measures that binary (an older commit's build, say)
# instead of building this tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Static, as the README installs it: a cgo build (dynamic libc) starts ~1.4 ms slower.
# Every executable timed is a copy made here with cp, this tree's build,
# PROSEWASH_BIN's, git and the Go hello alike: how a binary came into the
# page cache changes its start-up. The same prosewash build started 0.4-1.0
# ms of CPU (a third to a half of git's run) slower as the linker wrote it, or dropped
# from the cache and faulted back in by exec, than as a copy or after a
# read(2) of the file (cat); /usr/bin/git 0.2-0.4 ms slower than its copy.
# (Likely the kernel keeps pages written or read by system calls in large
# folios and maps them in fewer steps; not verified here.) A comparison of
# binaries in different states measures the states.
if [ -n "${PROSEWASH_BIN:-}" ]; then
  cp "$PROSEWASH_BIN" "$work/prosewash" # named prosewash: only then does a hook start a worker
else
  CGO_ENABLED=0 go build -o "$work/prosewash.built" ./cmd/prosewash
  cp "$work/prosewash.built" "$work/prosewash"
fi
pw=$work/prosewash
git=$work/git
cp "$(command -v git)" "$git"

repo=$work/repo
mkdir -p "$repo/docs"
export PROSEWASH_STATE_DIR=$work/state XDG_CONFIG_HOME=$work/config HOME=$work/home
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=b@example.invalid GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=b@example.invalid
mkdir -p "$HOME"
git -C "$repo" init -q
# A realistic written file (about 2 KB of Markdown) and a realistic payload:
# Claude Code sends the content in tool_input and again in tool_response.
content=$(for i in $(seq 1 30); do printf 'Line %d of the design notes, with some prose about hooks.\\n' "$i"; done)
printf '%b' "$content" > "$repo/docs/notes.md"
git -C "$repo" add -A && git -C "$repo" commit -q -m init
sid=0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0
cat > "$work/post.json" <<JSON
{"session_id":"$sid","transcript_path":"$HOME/.claude/projects/x/$sid.jsonl","cwd":"$repo","prompt_id":"p1","permission_mode":"acceptEdits","effort":{"level":"medium"},"hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"$repo/docs/notes.md","content":"$content"},"tool_response":{"type":"create","filePath":"$repo/docs/notes.md","content":"$content","structuredPatch":[],"originalFile":null,"userModified":false},"tool_use_id":"toolu_1","duration_ms":4}
JSON
cat > "$work/start.json" <<JSON
{"session_id":"$sid","transcript_path":"$HOME/.claude/projects/x/$sid.jsonl","cwd":"$repo","hook_event_name":"SessionStart","source":"startup"}
JSON
cat > "$work/stop.json" <<JSON
{"session_id":"$sid","transcript_path":"$HOME/.claude/projects/x/$sid.jsonl","cwd":"$repo","prompt_id":"p1","permission_mode":"acceptEdits","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done","background_tasks":[],"session_crons":[]}
JSON
# A session start in a project with real memory files: a 34 KB CLAUDE.md
# and a 6 KB AGENTS.md from the corpus, which the memory gauge discovers,
# reads and follows the imports of at every session start.
memrepo=$work/memrepo
mkdir -p "$memrepo"
cp testdata/corpus/memory-fresh5/kufu__smarthr-ui__CLAUDE.md "$memrepo/CLAUDE.md"
cp testdata/corpus/memory-fresh5/knackw__mcp-qolaba__AGENTS.md "$memrepo/AGENTS.md"
git -C "$memrepo" init -q
git -C "$memrepo" add -A && git -C "$memrepo" commit -q -m init
msid=1b1c2d3e-4f50-6172-8394-a5b6c7d8e9f1
cat > "$work/memstart.json" <<JSON
{"session_id":"$msid","transcript_path":"$HOME/.claude/projects/y/$msid.jsonl","cwd":"$memrepo","hook_event_name":"SessionStart","source":"startup"}
JSON
# Another agent's hook: Codex's PostToolUse after an apply_patch, shaped as
# codex 0.169.0 sends it (internal/hooks/agent/testdata).
csid=01a230ad-9d46-7bc0-bfee-8c1090290eb0
cat > "$work/codex-post.json" <<JSON
{"session_id":"$csid","turn_id":"01a230ad-9d5b-76f3-ae70-3928fee09553","transcript_path":"$HOME/.codex/sessions/rollout-$csid.jsonl","cwd":"$repo","hook_event_name":"PostToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: docs/notes.md\n@@\n-Line 1 of the design notes, with some prose about hooks.\n+Line 1 of the design notes, with some prose about hooks.\n*** End Patch\n"},"tool_response":"Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nM docs/notes.md\n","tool_use_id":"call_1"}
JSON
# Sanity: the hooks answer nothing and record the file.
(cd "$repo" && "$pw" hook claude session-start < "$work/start.json" && "$pw" hook claude post-tool-use < "$work/post.json" && "$pw" hook claude stop < "$work/stop.json") > "$work/out"
if [ -s "$work/out" ]; then echo "bench: unexpected hook output:"; cat "$work/out"; exit 1; fi
(cd "$repo" && "$pw" recorded --session "$sid" 2>/dev/null | grep -q 'eligible *docs/notes.md') || { echo "bench: post-tool-use did not record the file"; exit 1; }
(cd "$repo" && "$pw" hook codex post-tool-use < "$work/codex-post.json") > "$work/out"
(cd "$memrepo" && "$pw" hook claude session-start < "$work/memstart.json") > "$work/out"
grep -q additionalContext "$work/out" || { echo "bench: session-start did not gauge the real memory files:"; cat "$work/out"; exit 1; }
(cd "$repo" && "$pw" recorded --session "$csid" 2>/dev/null | grep -q 'eligible *docs/notes.md') || { echo "bench: codex post-tool-use did not record the file:"; cat "$work/out"; exit 1; }

# "prosewash version" is the floor: starting this binary and doing nothing.
# Timed without a shell in between (bench/hooktime): the hooks take a few
# milliseconds, which a shell's own start-up would drown.
go build -o "$work/hooktime" ./bench/hooktime
mkdir "$work/hello"
printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' > "$work/hello/main.go"
printf 'module hello\n\ngo 1.26\n' > "$work/hello/go.mod"
(cd "$work/hello" && CGO_ENABLED=0 GOWORK=off GOFLAGS= go build -o "$work/hello/hello.built" . && cp hello.built hello)
echo "prosewash hook wall and CPU time vs git rev-parse HEAD (alternating, $runs rounds, medians, no shell; $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a))"
printf '| %-30s | %9s | %6s | %9s | %6s |\n' command "wall" ratio "CPU" ratio
printf '|%s|%s|%s|%s|%s|\n' "--------------------------------" "-----------" "--------" "-----------" "--------"
(cd "$repo" && "$work/hooktime" -runs "$runs" -- \
  "git rev-parse HEAD" - "$git" rev-parse HEAD -- \
  "post-tool-use" "$work/post.json" "$pw" hook claude post-tool-use -- \
  "session-start" "$work/start.json" "$pw" hook claude session-start -- \
  "session-start, real memory" "$work/memstart.json" "$pw" hook claude session-start -- \
  "stop (manual, nothing to do)" "$work/stop.json" "$pw" hook claude stop -- \
  "codex post-tool-use" "$work/codex-post.json" "$pw" hook codex post-tool-use -- \
  "prosewash version (floor)" - "$pw" version -- \
  "Go hello, static (Go's floor)" - "$work/hello/hello")
echo
echo "heaviest package initialisers (GODEBUG=inittrace=1, one run):"
(cd "$repo" && GODEBUG=inittrace=1 "$pw" hook claude post-tool-use < "$work/post.json" 2>&1 >/dev/null) |
  awk '/^init / { t += $5; printf "%8.3f ms  %s\n", $5, $2 } END { printf "%8.3f ms  total in package init\n", t }' | sort -rn | head -12

# Instructions executed (valgrind's cachegrind, the process and its
# children summed: stop's worker when it has one): the same count on a
# quiet or a loaded machine, where the times above are not. Go's
# asynchronous preemption signals are turned off, as valgrind needs.
if command -v valgrind >/dev/null; then
  echo
  echo "instructions executed (valgrind --tool=cachegrind, children included, one run each):"
  instr() { # LABEL STDIN CMD...
    local label=$1 in=$2 out total=0 n
    shift 2
    [ "$in" = - ] && in=/dev/null
    out=$(mktemp -d "$work/cg.XXXXXX")
    (cd "$repo" && GODEBUG=asyncpreemptoff=1 valgrind --tool=cachegrind --cache-sim=no --trace-children=yes \
      --cachegrind-out-file="$out/cg.%p" "$@" <"$in" >/dev/null 2>"$out/log") || true
    for f in "$out"/cg.*; do
      n=$(awk '/^summary:/ { print $2 }' "$f")
      total=$((total + ${n:-0}))
    done
    printf '%12d  %-30s (%d process(es))\n' "$total" "$label" "$(ls "$out"/cg.* | wc -l)"
  }
  instr "git rev-parse HEAD" - "$git" rev-parse HEAD
  instr "post-tool-use" "$work/post.json" "$pw" hook claude post-tool-use
  instr "session-start" "$work/start.json" "$pw" hook claude session-start
  instr "session-start, real memory" "$work/memstart.json" "$pw" hook claude session-start
  instr "stop (manual, nothing to do)" "$work/stop.json" "$pw" hook claude stop
  instr "prosewash version (floor)" - "$pw" version
  instr "Go hello, static (Go's floor)" - "$work/hello/hello"
fi
