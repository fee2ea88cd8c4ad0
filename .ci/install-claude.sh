#!/usr/bin/env bash
# Install a pinned Claude Code CLI (npm @anthropic-ai/claude-code) into a cache
# directory outside the repository, for the end-to-end hook tests in
# internal/testkit/ccharness. Prints the absolute path of the claude binary on its
# last line; exits non-zero with a message when npm or the registry is missing.
#
# Why 2.1.197: it is the newest release whose "engines" field accepts node 20
# (Debian's node), so it is what a plain `npm install` resolves there; newer
# releases only warn (EBADENGINE) but the pin keeps CI reproducible, because
# hook wording and request shapes drift between versions. Override with
# PROSEWASH_CLAUDE_VERSION=x.y.z. The CLI is a native ELF: node is only needed
# by the postinstall step that hard-links the platform binary into bin/.
#
# Layout (ROOT = $PROSEWASH_CLAUDE_CACHE, else
# ${XDG_CACHE_HOME:-$HOME/.cache}/prosewash-ci/claude-code):
#   ROOT/<version>/node_modules/...   one npm prefix per version
#   ROOT/bin/claude                   symlink to the last installed binary
#                                     (the default ccharness.FindClaude looks here)
set -euo pipefail
umask 077

version="${PROSEWASH_CLAUDE_VERSION:-2.1.197}"
root="${PROSEWASH_CLAUDE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/prosewash-ci/claude-code}"
pkg="@anthropic-ai/claude-code"

die() { echo "install-claude: $*" >&2; exit 1; }
log() { echo "install-claude: $*" >&2; }

case "$version" in
  *[!0-9A-Za-z.+-]*|"") die "PROSEWASH_CLAUDE_VERSION must be a plain version like 2.1.197, got '$version'" ;;
esac
case "$root" in /*) ;; *) die "cache directory must be absolute, got '$root'" ;; esac

prefix="$root/$version"

# platform_pkg names the optional dependency that carries the native binary.
platform_pkg() {
  local os arch libc=""
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) return 1 ;; esac
  case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) return 1 ;; esac
  if [ "$os" = linux ] && ls /lib/ld-musl-* >/dev/null 2>&1; then libc=-musl; fi
  echo "$pkg-$os-$arch$libc"
}

# resolve_bin prints a runnable claude binary inside prefix $1 that reports version $2.
resolve_bin() {
  local p="$1" want="$2" cand plat
  plat="$(platform_pkg || true)"
  for cand in \
    "$p/node_modules/$pkg/bin/claude.exe" \
    ${plat:+"$p/node_modules/$plat/claude"} \
    "$p"/node_modules/@anthropic-ai/claude-code-*/claude; do
    [ -f "$cand" ] && [ -x "$cand" ] || continue
    # the unlinked bin/claude.exe placeholder is not a working CLI; --version proves it is
    if out="$("$cand" --version 2>/dev/null </dev/null)" && [ "${out%% *}" = "$want" ]; then
      echo "$cand"
      return 0
    fi
  done
  return 1
}

link_and_print() {
  local bin="$1"
  mkdir -p "$root/bin"
  ln -sfn "$bin" "$root/bin/.claude.tmp.$$"
  mv -f "$root/bin/.claude.tmp.$$" "$root/bin/claude"
  echo "$bin"
}

mkdir -p "$root"
# Serialise concurrent installs (parallel CI jobs sharing a cache).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$root/.lock"
  flock 9
fi
if bin="$(resolve_bin "$prefix" "$version")"; then
  log "claude $version already installed"
  link_and_print "$bin"
  exit 0
fi

command -v npm >/dev/null 2>&1 || die "npm not found on PATH; install Node.js/npm (e.g. apt-get install npm) or set PROSEWASH_CLAUDE_BIN to an existing claude binary"

# Install into a fresh directory and rename it into place, so an interrupted or
# concurrent run never leaves a half-installed prefix that looks complete.
tmp="$(mktemp -d "$root/.install.$version.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log "installing $pkg@$version into $prefix"
start=$(date +%s)
if ! npm install --prefix "$tmp" --no-audit --no-fund --no-save --loglevel=error \
      --fetch-retries=2 --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=10000 \
      "$pkg@$version" >&2; then
  die "npm install $pkg@$version failed (registry $(npm config get registry 2>/dev/null || echo unknown) unreachable or version missing?)"
fi
bin_tmp="$(resolve_bin "$tmp" "$version")" || die "installed $pkg@$version but found no working claude binary (neither bin/claude.exe nor the platform package $(platform_pkg || echo '?'))"
rm -rf "$prefix"
mv -T "$tmp" "$prefix" || die "could not move the install into $prefix"
trap - EXIT
log "installed in $(( $(date +%s) - start ))s"
bin="$(resolve_bin "$prefix" "$version")" || die "claude binary vanished after moving into $prefix (was $bin_tmp)"
link_and_print "$bin"
