package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// mutant is one deliberate bug the tests must catch.
type mutant struct {
	name     string
	file     string
	pkgs     []string
	run      string
	why      string
	old, new []byte
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mutate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("only", "", "run only the mutant with this name")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit for each mutant's test run")
	dir := fs.String("dir", "testdata/mutants", "where the mutants are")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ms, err := load(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "mutate: %v\n", err)
		return 2
	}
	if *only != "" {
		var keep []mutant
		for _, m := range ms {
			if m.name == *only {
				keep = append(keep, m)
			}
		}
		ms = keep
	}
	if len(ms) == 0 {
		fmt.Fprintf(stderr, "mutate: no mutants to run\n")
		return 2
	}
	work, err := copyTree()
	if err != nil {
		fmt.Fprintf(stderr, "mutate: copy the repository: %v\n", err)
		return 2
	}
	defer os.RemoveAll(work)
	failed := 0
	for _, m := range ms {
		start := time.Now()
		verdict, detail := try(work, m, *timeout)
		fmt.Fprintf(stdout, "mutate: %-8s %-40s %6.1fs  %s\n", verdict, m.name, time.Since(start).Seconds(), m.why)
		if verdict != "killed" {
			failed++
			if detail != "" {
				fmt.Fprintf(stdout, "%s\n", indent(detail))
			}
		}
	}
	fmt.Fprintf(stdout, "mutate: %d of %d mutants killed\n", len(ms)-failed, len(ms))
	if failed > 0 {
		return 1
	}
	return 0
}

func load(dir string) ([]mutant, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var ms []mutant
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			return nil, err
		}
		m := mutant{name: strings.TrimSuffix(filepath.Base(p), ".txtar")}
		var why []string
		for _, l := range strings.Split(string(a.Comment), "\n") {
			switch k, v, _ := strings.Cut(l, ":"); k {
			case "file":
				m.file = strings.TrimSpace(v)
			case "test":
				m.pkgs = strings.Fields(v)
			case "run":
				m.run = strings.TrimSpace(v)
			default:
				if strings.TrimSpace(l) != "" {
					why = append(why, strings.TrimSpace(l))
				}
			}
		}
		m.why = strings.Join(why, " ")
		for _, f := range a.Files {
			switch f.Name {
			case "old":
				m.old = f.Data
			case "new":
				m.new = f.Data
			}
		}
		if m.file == "" || len(m.pkgs) == 0 || m.old == nil || m.new == nil {
			return nil, fmt.Errorf("%s: a mutant needs file:, test:, -- old -- and -- new --", p)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// copyTree copies the files git tracks (and new, not ignored ones) into a
// temporary directory, so mutants never touch the working tree.
func copyTree() (string, error) {
	out, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("git ls-files: %w", err)
	}
	work, err := os.MkdirTemp("", "prosewash-mutate-")
	if err != nil {
		return "", err
	}
	for _, rel := range strings.Split(string(out), "\x00") {
		if rel == "" {
			continue
		}
		fi, err := os.Lstat(rel)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(rel)
		if err != nil {
			return work, err
		}
		dst := filepath.Join(work, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return work, err
		}
		if err := os.WriteFile(dst, data, fi.Mode().Perm()); err != nil {
			return work, err
		}
	}
	return work, nil
}

// try applies m, runs its tests and puts the file back. The verdict is
// "killed" (the tests failed, as they must), "SURVIVED" or "STALE".
func try(work string, m mutant, timeout time.Duration) (string, string) {
	path := filepath.Join(work, m.file)
	orig, err := os.ReadFile(path)
	if err != nil {
		return "STALE", err.Error()
	}
	if n := bytes.Count(orig, m.old); n != 1 {
		return "STALE", fmt.Sprintf("the old text occurs %d times in %s (want exactly once): update the mutant", n, m.file)
	}
	if err := os.WriteFile(path, bytes.Replace(orig, m.old, m.new, 1), 0o644); err != nil {
		return "STALE", err.Error()
	}
	defer os.WriteFile(path, orig, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	args := []string{"test", "-count=1"}
	if m.run != "" {
		args = append(args, "-run", m.run)
	}
	args = append(args, m.pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = work
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "killed", "" // a hang is a failure the suite noticed, by its timeout
	case errors.As(err, &ee):
		if bytes.Contains(buf.Bytes(), []byte("[build failed]")) || bytes.Contains(buf.Bytes(), []byte("[setup failed]")) {
			return "STALE", "the mutant does not compile: it proves nothing\n" + tail(buf.String())
		}
		if !testsFailed(buf.Bytes()) {
			// go test itself failed (a package that no longer exists, a bad flag): no test ran.
			return "STALE", "go test failed before any test ran: it proves nothing\n" + tail(buf.String())
		}
		return "killed", ""
	case err != nil:
		return "STALE", err.Error()
	}
	return "SURVIVED", "go " + strings.Join(args, " ") + " passed with the mutant applied"
}

// testsFailed reports whether go test's output shows a test binary that ran
// and failed: a "--- FAIL" line, or a package's "FAIL\t" summary line.
func testsFailed(out []byte) bool {
	for _, l := range bytes.Split(out, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(l), []byte("--- FAIL")) || bytes.HasPrefix(l, []byte("FAIL\t")) {
			return true
		}
	}
	return false
}

func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
