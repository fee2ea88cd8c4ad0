package agent

import (
	"github.com/prosewash/prosewash/internal/engine/session"

	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/prosewash/prosewash/internal/engine/region"
)

// PatchPaths returns the files an apply_patch envelope writes, in order:
// every "*** Add File:", "*** Update File:" and "*** Move to:" path.
// "*** Delete File:" paths are left out: a deleted file has nothing to
// clean. Paths relative to dir are made absolute; raw keeps the spelling
// the patch used. The grammar is Codex's (codex-rs apply-patch): one
// header per line, the path after ": " to the end of the line.
func PatchPaths(patch, dir string) []session.Written {
	var out []session.Written
	seen := map[string]bool{}
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		var p string
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Move to: "} {
			if strings.HasPrefix(line, h) {
				p = strings.TrimSpace(line[len(h):])
				break
			}
		}
		if p == "" {
			continue
		}
		w := session.Written{Path: abs(p, dir), Raw: p}
		if !seen[w.Path] {
			seen[w.Path] = true
			out = append(out, w)
		}
	}
	return out
}

// PatchDeleted returns the "*** Delete File:" paths of an apply_patch
// envelope, made absolute against dir: nothing to clean, but the memory
// lane's write guard keeps a copy of a memory file before it goes.
func PatchDeleted(patch, dir string) []session.Written {
	var out []session.Written
	for _, line := range strings.Split(patch, "\n") {
		if p, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "*** Delete File: "); ok && strings.TrimSpace(p) != "" {
			p = strings.TrimSpace(p)
			out = append(out, session.Written{Path: abs(p, dir), Raw: p})
		}
	}
	return out
}

// ShellPaths returns the files a shell command names as written: the
// targets of output redirections (>, >>, >|, &>, &>>) and tee's arguments,
// where they are literal words, plus the files of any apply_patch envelope
// the command carries. A target built from a variable, a command
// substitution or a glob is not knowable before it runs and is left to
// the end-of-turn sweep of recorded files (it is not recorded). A command
// the parser rejects names nothing.
func ShellPaths(command, dir string) []session.Written {
	var out []session.Written
	seen := map[string]bool{}
	add := func(p string) {
		if p == "" || p == "-" || strings.HasPrefix(p, "/dev/") {
			return
		}
		w := session.Written{Path: abs(p, dir), Raw: p}
		if !seen[w.Path] {
			seen[w.Path] = true
			out = append(out, w)
		}
	}
	if strings.Contains(command, "*** Begin Patch") {
		for _, w := range PatchPaths(command, dir) {
			add(w.Raw)
		}
	}
	// region.ParseShell refuses a command too large or nested too deep
	// for the parser's stack (a fatal error, not a panic) before parsing.
	f, err := region.ParseShell([]byte(command), syntax.LangBash)
	if err != nil {
		return out
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Redirect:
			switch x.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
				if s, ok := literal(x.Word); ok {
					add(s)
				}
			}
		case *syntax.CallExpr:
			if len(x.Args) > 1 {
				if name, ok := literal(x.Args[0]); ok && filepath.Base(name) == "tee" {
					for _, a := range x.Args[1:] {
						if s, ok := literal(a); ok && !strings.HasPrefix(s, "-") {
							add(s)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// literal is a word's value when it has no expansion: plain text and
// quotes only.
func literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, part := range w.Parts {
		switch x := part.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "*?[~") {
				return "", false
			}
			b.WriteString(strings.ReplaceAll(x.Value, "\\", ""))
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), b.Len() > 0
}

func abs(p, dir string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}
