package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/bench/internal/rusage"
	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 2 && args[0] == "floor" {
		if err := floor(args[1]); err != nil {
			fmt.Fprintf(stderr, "clean-floor: %v\n", err)
			return 1
		}
		return 0
	}
	fs := flag.NewFlagSet("clean-floor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pw := fs.String("prosewash", "", "the prosewash binary to measure")
	sizes := fs.String("sizes", "20,200,2000", "corpus sizes (files)")
	stopSizes := fs.String("stop-sizes", "200,2000", "sizes at which the Stop hook is measured too")
	runs := fs.Int("runs", 1, "measurements of each command at each size (the median is reported)")
	wrap := fs.String("wrap", "", "run clean and stop under this command, split at spaces (valgrind --tool=callgrind --trace-children=yes ...: instruction counts, which a loaded machine does not change)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *pw == "" {
		fmt.Fprintln(stderr, "clean-floor: -prosewash BIN is required")
		return 2
	}
	b := &bench{stderr: stderr, wrap: strings.Fields(*wrap)}
	var err error
	if b.pw, err = filepath.Abs(*pw); err == nil {
		b.pw, err = filepath.EvalSymlinks(b.pw)
	}
	if err == nil {
		b.self, err = os.Executable()
	}
	if err != nil {
		fmt.Fprintf(stderr, "clean-floor: %v\n", err)
		return 1
	}
	ns, err1 := ints(*sizes)
	stops, err2 := ints(*stopSizes)
	if err := errors.Join(err1, err2); err != nil || *runs < 1 {
		fmt.Fprintf(stderr, "clean-floor: bad -sizes, -stop-sizes or -runs: %v\n", err)
		return 2
	}
	var rows []row
	for _, n := range ns {
		r, err := b.size(n, slices.Contains(stops, n), *runs)
		if err != nil {
			fmt.Fprintf(stderr, "clean-floor: %d files: %v\n", n, err)
			return 1
		}
		rows = append(rows, r)
	}
	report(stdout, rows, *runs)
	return 0
}

// row is what one corpus size measured: medians over the runs.
type row struct {
	n                  int
	floor, clean, stop time.Duration
	// The same in CPU time (user + system of the command and the children it waited for:
	// the Stop hook's worker, the validators): on a shared machine it says what the
	// command did, where the wall time also says how long it waited for a core.
	floorCPU, cleanCPU, stopCPU time.Duration
	cleanRSS, stopRSS           int64 // KiB
	cleanOut, stopOut           string
	stopMeasured                bool
}

type bench struct {
	pw, self string
	stderr   io.Writer
	wrap     []string // the command clean and stop run under (-wrap), if any
}

// size measures the floor, clean and (with stop) the Stop hook on fresh copies of an n-file
// corpus, runs times each, alternating, the order turned round on every other run so that no
// command always follows the same one.
func (b *bench) size(n int, stop bool, runs int) (row, error) {
	r := row{n: n, stopMeasured: stop}
	kinds := []string{"floor", "clean"}
	if stop {
		kinds = append(kinds, "stop")
	}
	times, cpus := map[string][]time.Duration{}, map[string][]time.Duration{}
	for i := range runs {
		order := slices.Clone(kinds)
		if i%2 == 1 {
			slices.Reverse(order)
		}
		for _, what := range order {
			d, cpu, rss, out, err := b.timed(n, what)
			if err != nil {
				return r, err
			}
			times[what], cpus[what] = append(times[what], d), append(cpus[what], cpu)
			switch what {
			case "clean":
				r.cleanRSS, r.cleanOut = max(r.cleanRSS, rss), out
			case "stop":
				r.stopRSS, r.stopOut = max(r.stopRSS, rss), out
			}
		}
		fmt.Fprintf(b.stderr, "clean-floor: %d files, run %d (%s): floor %v (CPU %v), clean %v (CPU %v), stop %v (CPU %v)\n", n, i+1, strings.Join(order, ", "),
			last(times["floor"]), last(cpus["floor"]), last(times["clean"]), last(cpus["clean"]), last(times["stop"]), last(cpus["stop"]))
	}
	r.floor, r.clean, r.stop = median(times["floor"]), median(times["clean"]), median(times["stop"])
	r.floorCPU, r.cleanCPU, r.stopCPU = median(cpus["floor"]), median(cpus["clean"]), median(cpus["stop"])
	return r, nil
}

// timed makes a fresh corpus and times one command on it: "floor", "clean" or "stop", in
// wall time and in CPU time. It checks that clean and stop removed every carrier.
func (b *bench) timed(n int, what string) (wall, cpu time.Duration, rss int64, said string, err error) {
	work, err := os.MkdirTemp("", "prosewash-clean-floor-")
	if err != nil {
		return 0, 0, 0, "", err
	}
	defer os.RemoveAll(work)
	repo := filepath.Join(work, "repo")
	paths, err := corpus(repo, n)
	if err != nil {
		return 0, 0, 0, "", err
	}
	env := b.env(work)
	var cmd *exec.Cmd
	switch what {
	case "floor":
		cmd = exec.Command(b.self, "floor", repo)
	case "clean":
		cmd = exec.Command(b.pw, "clean", ".")
	case "stop":
		if cmd, err = b.stopHook(repo, env, paths); err != nil {
			return 0, 0, 0, "", err
		}
	}
	if what != "floor" && len(b.wrap) > 0 {
		wrapped := exec.Command(b.wrap[0], append(b.wrap[1:], cmd.Args...)...)
		wrapped.Stdin = cmd.Stdin
		cmd = wrapped
	}
	cmd.Dir, cmd.Env = repo, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Each command pays for its own writes only, not the corpus's.
	rusage.Sync()
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	if err != nil {
		return 0, 0, 0, "", fmt.Errorf("%s: %v\n%s", what, err, tail(out.String()))
	}
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	rss = rusage.PeakKiB(cmd.ProcessState)
	if what != "floor" {
		if left := dirty(paths); left > 0 {
			return 0, 0, 0, "", fmt.Errorf("%s left %d of %d files with their carrier:\n%s", what, left, n, tail(out.String()))
		}
	}
	return wall, cpu, rss, lastLine(out.String()), nil
}

// env is a private state dir, configuration and home under work.
func (b *bench) env(work string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PROSEWASH_") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	for _, d := range []string{"state", "config", "home"} {
		_ = os.MkdirAll(filepath.Join(work, d), 0o700)
	}
	return append(env, "PROSEWASH_STATE_DIR="+filepath.Join(work, "state"), "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"HOME="+filepath.Join(work, "home"), "GIT_CONFIG_NOSYSTEM=1", "NO_COLOR=1")
}

// stopHook sets up what an approved automatic end of turn finds (the mode, the approval the
// person would have given, the session's files recorded) and returns the hook's command.
func (b *bench) stopHook(repo string, env, paths []string) (*exec.Cmd, error) {
	const session = "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
	if err := os.WriteFile(filepath.Join(repo, ".prosewash.toml"), []byte("[clean]\nmode = \"automatic\"\n"), 0o644); err != nil {
		return nil, err
	}
	for i := 0; i < len(paths); i += 500 {
		rec := exec.Command(b.pw, append([]string{"record", "--session", session}, paths[i:min(i+500, len(paths))]...)...)
		rec.Dir, rec.Env = repo, env
		if out, err := rec.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("record: %v\n%s", err, out)
		}
	}
	if err := b.approve(repo, env); err != nil {
		return nil, err
	}
	payload, _ := json.Marshal(map[string]any{"session_id": session, "cwd": repo, "hook_event_name": "Stop", "stop_hook_active": false})
	cmd := exec.Command(b.pw, "hook", "claude", "stop")
	cmd.Stdin = bytes.NewReader(payload)
	return cmd, nil
}

// approve stores the approval of automatic mode for the project's fingerprint, as
// "prosewash approve" does once the person said yes on a terminal.
func (b *bench) approve(repo string, env []string) error {
	getenv := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
	ver := exec.Command(b.pw, "status", "--json")
	ver.Dir, ver.Env = repo, env
	out, err := ver.Output()
	if err != nil {
		return fmt.Errorf("status: %v", err)
	}
	var st struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		return fmt.Errorf("status: %v", err)
	}
	p, err := project.Find(project.Options{Root: repo, Getenv: getenv, Home: getenv("HOME"),
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		return err
	}
	s, err := approval.ProjectSubject(p, b.pw, st.Version, approval.Automatic)
	if err != nil {
		return err
	}
	stateDir, err := p.StateDir()
	if err != nil {
		return err
	}
	_, err = approval.Grant(stateDir, approval.Caller{}, s)
	return err
}

// dirty counts the files that still hold their zero-width space.
func dirty(paths []string) int {
	n := 0
	for _, p := range paths {
		if b, err := os.ReadFile(p); err != nil || bytes.Contains(b, []byte("\u200b")) {
			n++
		}
	}
	return n
}

func report(w io.Writer, rows []row, runs int) {
	fmt.Fprintf(w, "clean on small files (Markdown, Python, Go, JS in turn, one zero-width space in the prose of each, %d per directory), median of %d run(s)\n", perDir, runs)
	fmt.Fprintf(w, "floor: the same files replaced by temp file + fsync + rename + directory fsync each, nothing else\n\n")
	fmt.Fprintln(w, "| files | floor ms/file | clean ms/file | clean / floor | clean peak RSS | stop ms/file | stop / clean | stop peak RSS |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		stop := "| - | - | -"
		if r.stopMeasured {
			stop = fmt.Sprintf("| %.2f | %.2fx | %d MiB", perFile(r.stop, r.n), ratio(r.stop, r.clean), r.stopRSS/1024)
		}
		fmt.Fprintf(w, "| %d | %.2f | %.2f | %.2fx | %d MiB %s |\n", r.n, perFile(r.floor, r.n), perFile(r.clean, r.n), ratio(r.clean, r.floor), r.cleanRSS/1024, stop)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "the same in CPU time (user + system, children included), ms per file:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| files | floor CPU | clean CPU | clean / floor | stop CPU | stop / clean |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		stop := "| - | -"
		if r.stopMeasured {
			stop = fmt.Sprintf("| %.2f | %.2fx", perFile(r.stopCPU, r.n), ratio(r.stopCPU, r.cleanCPU))
		}
		fmt.Fprintf(w, "| %d | %.2f | %.2f | %.2fx %s |\n", r.n, perFile(r.floorCPU, r.n), perFile(r.cleanCPU, r.n), ratio(r.cleanCPU, r.floorCPU), stop)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "growth between sizes: the exponent k in time ~ files^k (1 is linear), and the per-file ratio")
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		fmt.Fprintf(w, "  %d -> %d files: floor k=%.2f, clean k=%.2f (per file x%.2f)", a.n, b.n, exponent(a.floor, b.floor, a.n, b.n),
			exponent(a.clean, b.clean, a.n, b.n), ratio(b.clean, a.clean)*float64(a.n)/float64(b.n))
		if a.stopMeasured && b.stopMeasured {
			fmt.Fprintf(w, ", stop k=%.2f", exponent(a.stop, b.stop, a.n, b.n))
		}
		fmt.Fprintln(w)
	}
	if len(rows) > 1 {
		first, lastRow := rows[0], rows[len(rows)-1]
		fmt.Fprintf(w, "clean/floor at %d files over clean/floor at %d: %.2f (goal: at most 1, and clean/floor at most 2)\n",
			lastRow.n, first.n, ratio(lastRow.clean, lastRow.floor)/ratio(first.clean, first.floor))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %d files: clean said %q", r.n, r.cleanOut)
		if r.stopMeasured {
			fmt.Fprintf(w, "; stop said %q", r.stopOut)
		}
		fmt.Fprintln(w)
	}
}

func perFile(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

func exponent(t1, t2 time.Duration, n1, n2 int) float64 {
	return math.Log(float64(t2)/float64(t1)) / math.Log(float64(n2)/float64(n1))
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func last(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[len(ds)-1]
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-15):], "\n")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.TrimPrefix(lines[len(lines)-1], "prosewash: ")
}
