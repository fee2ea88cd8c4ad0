package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("wash-sim-gauge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	runs := fs.Int("runs", 41, "timed runs of each (the median is reported)")
	notes := fs.Int("notes", 40, "recall-only notes in the memory directory")
	bin := fs.String("prosewash", "", "prosewash binary (default: go build ./cmd/prosewash)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	res, err := Measure(*runs, *notes, *bin)
	if err != nil {
		fmt.Fprintf(stderr, "wash-sim-gauge: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wash-sim-gauge: median of %d runs, %d memory files\n", *runs, res.Files)
	fmt.Fprintf(stdout, "  git rev-parse HEAD (process):          %8.2f ms\n", ms(res.Git))
	fmt.Fprintf(stdout, "  prosewash wash gauge --json (process): %8.2f ms  (%.2fx git)\n", ms(res.Process), ratio(res.Process, res.Git))
	fmt.Fprintf(stdout, "  lane.SessionStart, memory unchanged:   %8.2f ms  (%.2fx git)\n", ms(res.InProcess), ratio(res.InProcess, res.Git))
	fmt.Fprintf(stdout, "  lane.SessionStart, memory changed:     %8.2f ms  (%.2fx git)\n", ms(res.Miss), ratio(res.Miss, res.Git))
	fmt.Fprintf(stdout, "  hook process estimate (start-up + unchanged): %.2f ms (%.2fx git)\n", ms(res.Startup+res.InProcess), ratio(res.Startup+res.InProcess, res.Git))
	fmt.Fprintf(stdout, "  prosewash version (process start-up):  %8.2f ms\n", ms(res.Startup))
	return 0
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Result holds the medians.
type Result struct {
	Git, Process, InProcess, Startup time.Duration
	// Miss is SessionStart when a memory file changed since the last gauge (a full read and
	// plan of the always-loaded files).
	Miss  time.Duration
	Files int
}

// Measure builds the fixture and times the four commands.
func Measure(runs, notes int, bin string) (Result, error) {
	var res Result
	if _, err := exec.LookPath("git"); err != nil {
		return res, fmt.Errorf("git not found: %w", err)
	}
	base, err := os.MkdirTemp("", "wash-gauge-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(base)
	base, _ = filepath.EvalSymlinks(base)
	root, home, state := filepath.Join(base, "proj"), filepath.Join(base, "home"), filepath.Join(base, "state")
	env := map[string]string{"HOME": home, "PROSEWASH_STATE_DIR": state, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid"}
	res.Files, err = fixture(root, home, notes)
	if err != nil {
		return res, err
	}
	environ := os.Environ()
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "fixture"}} {
		c := exec.Command("git", args...)
		c.Dir, c.Env = root, environ
		if out, err := c.CombinedOutput(); err != nil {
			return res, fmt.Errorf("git %s: %v: %s", args[0], err, out)
		}
	}
	if bin == "" {
		bin = filepath.Join(base, "prosewash")
		modDir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
		if err != nil {
			return res, fmt.Errorf("locate the module: %w", err)
		}
		c := exec.Command("go", "build", "-o", bin, "./cmd/prosewash")
		c.Dir = strings.TrimSpace(string(modDir))
		if out, err := c.CombinedOutput(); err != nil {
			return res, fmt.Errorf("build prosewash: %v: %s", err, out)
		}
	}
	timeCmd := func(name string, args ...string) (time.Duration, error) {
		return median(runs, func() error {
			c := exec.Command(name, args...)
			c.Dir, c.Env = root, environ
			c.Stdout, c.Stderr = io.Discard, io.Discard
			return c.Run()
		})
	}
	if res.Git, err = timeCmd("git", "rev-parse", "HEAD"); err != nil {
		return res, err
	}
	if res.Process, err = timeCmd(bin, "wash", "gauge", "--json"); err != nil {
		return res, err
	}
	if res.Startup, err = timeCmd(bin, "version"); err != nil {
		return res, err
	}
	getenv := func(k string) string { return env[k] }
	sessionStart := func() error {
		// A fresh project per call, as a hook process would have.
		p, err := project.Find(project.Options{Root: root, Dir: root, Getenv: getenv, Home: home})
		if err != nil {
			return err
		}
		_, err = lane.New(p, lane.Options{Home: home, Getenv: getenv}).Measure("bench")
		return err
	}
	if res.InProcess, err = median(runs, sessionStart); err != nil {
		return res, err
	}
	index := filepath.Join(discover.MemoryDir(discover.Options{Home: home, ProjectRoot: root}), "MEMORY.md")
	tick := time.Now()
	res.Miss, err = median(runs, func() error {
		tick = tick.Add(time.Second)
		if err := os.Chtimes(index, tick, tick); err != nil {
			return err
		}
		return sessionStart()
	})
	return res, err
}

func median(n int, f func() error) (time.Duration, error) {
	if err := f(); err != nil { // warm-up (page cache, first state write)
		return 0, err
	}
	d := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		d = append(d, time.Since(start))
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2], nil
}

// fixture writes the project, its memory and 300 source files; it returns how many memory
// files there are.
func fixture(root, home string, notes int) (int, error) {
	files := map[string]string{}
	for i := 0; i < 300; i++ {
		files[fmt.Sprintf("src/pkg%02d/file%03d.go", i%20, i)] = fmt.Sprintf("package pkg%02d\n\n// F%d does one thing.\nfunc F%d() int { return %d }\n", i%20, i, i, i)
	}
	var claude strings.Builder
	claude.WriteString("# Project\n\n## Build\n\n- Run `make check` before every push.\n- Go 1.26, no cgo.\n\n## Conventions\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&claude, "- Convention %d: keep functions under %d lines and name errors `Err%d`.\n", i, 40+i, i)
	}
	claude.WriteString("- Convention 3: keep functions under 43 lines and name errors `Err3`.\n\n\n\n")
	files["CLAUDE.md"] = claude.String()
	files["AGENTS.md"] = "# Agents\n\n- Small commits; one change per commit.\n- Never push to main.\n"
	for i := 0; i < 3; i++ {
		files[fmt.Sprintf(".claude/rules/rule%d.md", i)] = fmt.Sprintf("# Rule %d\n\n- Applies to every file: lint level %d.\n", i, i)
	}
	for rel, c := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			return 0, err
		}
	}
	mem := discover.MemoryDir(discover.Options{Home: home, ProjectRoot: root})
	if err := os.MkdirAll(mem, 0o700); err != nil {
		return 0, err
	}
	var index strings.Builder
	index.WriteString("# Memory\n\n")
	for i := 0; i < 80; i++ {
		name := fmt.Sprintf("note-%02d.md", i%notes)
		fmt.Fprintf(&index, "- [Topic %d](%s): service %d listens on port %d since 2029-%02d-%02d\n", i, name, i, 20000+i, 1+i%12, 1+i%28)
	}
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte(index.String()), 0o644); err != nil {
		return 0, err
	}
	for i := 0; i < notes; i++ {
		body := fmt.Sprintf("# Note %d\n\n- Deploy with `make deploy-%d`; client v1.%d.%d.\n- Runbook: https://runbooks.example.com/%d\n", i, i, i%10, i, i)
		if err := os.WriteFile(filepath.Join(mem, fmt.Sprintf("note-%02d.md", i)), []byte(body), 0o644); err != nil {
			return 0, err
		}
	}
	return 2 + 3 + 1 + notes, nil
}
