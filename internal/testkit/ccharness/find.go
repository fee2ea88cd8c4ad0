package ccharness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// PinnedVersion is the Claude Code CLI version .ci/install-claude.sh installs
// by default: the newest release whose engines field accepts node 20.
const PinnedVersion = "2.1.197"

// EnvClaudeBin names the variable that points the harness at a claude binary.
const EnvClaudeBin = "PROSEWASH_CLAUDE_BIN"

// EnvClaudeCache names the variable that overrides the install cache directory,
// shared with .ci/install-claude.sh.
const EnvClaudeCache = "PROSEWASH_CLAUDE_CACHE"

// FindClaude locates the claude binary: $PROSEWASH_CLAUDE_BIN, else the link
// .ci/install-claude.sh maintains in its cache directory. When none is usable,
// ok is false and why says what is missing and how to install it, ready for
// t.Skip.
func FindClaude() (path string, ok bool, why string) {
	return findClaude(os.Getenv)
}

func findClaude(getenv func(string) string) (string, bool, string) {
	if p := getenv(EnvClaudeBin); p != "" {
		if err := checkExecutable(p); err != nil {
			return "", false, fmt.Sprintf("claude CLI not usable: %s=%s: %v", EnvClaudeBin, p, err)
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", false, fmt.Sprintf("claude CLI not usable: %s=%s: %v", EnvClaudeBin, p, err)
		}
		return abs, true, ""
	}
	dir, err := cacheDir(getenv)
	if err != nil {
		return "", false, fmt.Sprintf("claude CLI not found: %s unset and %v", EnvClaudeBin, err)
	}
	p := filepath.Join(dir, "bin", "claude")
	if err := checkExecutable(p); err != nil {
		return "", false, fmt.Sprintf("claude CLI not found: %s unset and %s is missing (run .ci/install-claude.sh, which needs npm and the npm registry): %v", EnvClaudeBin, p, err)
	}
	return p, true, ""
}

func cacheDir(getenv func(string) string) (string, error) {
	if d := getenv(EnvClaudeCache); d != "" {
		if !filepath.IsAbs(d) {
			return "", fmt.Errorf("%s is not absolute: %s", EnvClaudeCache, d)
		}
		return d, nil
	}
	base := getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(base) {
		// The XDG spec says relative values are invalid and must be ignored.
		home := getenv("HOME")
		if !filepath.IsAbs(home) {
			return "", fmt.Errorf("neither XDG_CACHE_HOME nor HOME is an absolute path")
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "prosewash-ci", "claude-code"), nil
}

func checkExecutable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("not a regular file")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("not executable")
	}
	return nil
}

// EnvClaudeRequired names the variable that turns a missing CLI from a skip
// into a failure, for CI runs where the install is known to have succeeded.
const EnvClaudeRequired = "PROSEWASH_CLAUDE_REQUIRED"

// RequireClaude returns the claude binary, or skips the test saying why it is
// absent (fails it instead when $PROSEWASH_CLAUDE_REQUIRED=1).
func RequireClaude(tb testing.TB) string {
	tb.Helper()
	p, ok, why := FindClaude()
	if !ok {
		if os.Getenv(EnvClaudeRequired) == "1" {
			tb.Fatalf("%s (and %s=1)", why, EnvClaudeRequired)
		}
		tb.Skip(why)
	}
	return p
}

// ClaudeVersion runs `claude --version` and returns the version number it
// reports (e.g. "2.1.197").
func ClaudeVersion(bin string) (string, error) {
	// A throwaway HOME keeps the probe from touching the developer's real config.
	home, err := os.MkdirTemp("", "ccharness-version-")
	if err != nil {
		return "", fmt.Errorf("claude --version: %w", err)
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(quietEnv(), "PATH="+os.Getenv("PATH"), "HOME="+home, "CLAUDE_CONFIG_DIR="+home)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("claude --version: %w", err)
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if v == "" {
		return "", fmt.Errorf("claude --version: empty output")
	}
	return v, nil
}
