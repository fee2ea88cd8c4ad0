package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/prosewash/prosewash/bench/internal/rusage"
	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/testkit/archivetest"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// childEnv carries the archive options to the measured child process.
const childEnv = "PROSEWASH_ARCHIVE_BENCH_CHILD"

type childSpec struct {
	ConfigDir, Store, Archive, Root, State string
	Now                                    time.Time
}

type childResult struct {
	Archived   int     `json:"archived"`
	Freed      int64   `json:"freed"`
	Compressed int64   `json:"compressed"`
	Seconds    float64 `json:"seconds"`
	Err        string  `json:"error,omitempty"`
}

func run(args []string, stdout, stderr io.Writer) int {
	if p := os.Getenv(childEnv); p != "" {
		return child(p, stdout)
	}
	fs := flag.NewFlagSet("archive-store", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bytes := fs.Int64("bytes", 1<<30, "approximate size of the generated store")
	sessions := fs.Int("sessions", 1000, "sessions in the store")
	dir := fs.String("dir", "", "work directory (default: a new temporary one, removed afterwards)")
	keep := fs.Bool("keep", false, "keep the work directory")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	base := *dir
	if base == "" {
		d, err := os.MkdirTemp("", "archive-store-")
		if err != nil {
			fmt.Fprintf(stderr, "archive-store: %v\n", err)
			return 1
		}
		base = d
		if !*keep {
			defer os.RemoveAll(base)
		}
	}
	cfg, proj, state, arch := filepath.Join(base, "claude"), filepath.Join(base, "proj"), filepath.Join(base, "state"), filepath.Join(base, "archive")
	for _, d := range []string{cfg, proj, state, arch} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			fmt.Fprintf(stderr, "archive-store: %v\n", err)
			return 1
		}
	}
	now := time.Now()
	t0 := time.Now()
	st, err := archivetest.Generate(cfg, proj, archivetest.Options{Sessions: *sessions, Bytes: *bytes, Seed: 1, Now: now, Recent: 10})
	if err != nil {
		fmt.Fprintf(stderr, "archive-store: generate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "store: %d sessions, %d files, %.1f MiB (generated in %.0fs)\n", len(st.Sessions), st.Files, float64(st.Bytes)/(1<<20), time.Since(t0).Seconds())
	// The peer: GNU tar piped to gzip at the same level, over the whole store.
	peer := exec.Command("sh", "-c", "tar -C \"$1\" -cf - . | gzip -6 > \"$2\"", "sh", st.Dir, filepath.Join(base, "peer.tar.gz"))
	t0 = time.Now()
	if out, err := peer.CombinedOutput(); err != nil {
		fmt.Fprintf(stderr, "archive-store: tar | gzip: %v\n%s", err, out)
		return 1
	}
	peerSec := time.Since(t0).Seconds()
	pfi, _ := os.Stat(filepath.Join(base, "peer.tar.gz"))
	peerMiBs := float64(st.Bytes) / (1 << 20) / peerSec
	fmt.Fprintf(stdout, "peer tar | gzip -6: %.1f MiB in %.1fs = %.1f MiB/s, %.1f:1 (no fsync, no verification, nothing deleted)\n",
		float64(st.Bytes)/(1<<20), peerSec, peerMiBs, float64(st.Bytes)/float64(pfi.Size()))
	_ = os.Remove(filepath.Join(base, "peer.tar.gz"))
	// The archive, in a child whose peak memory the kernel counts.
	spec, _ := json.Marshal(childSpec{ConfigDir: cfg, Store: st.Dir, Archive: filepath.Join(arch, filepath.Base(st.Dir)), Root: proj, State: state, Now: now})
	sp := filepath.Join(base, "spec.json")
	if err := os.WriteFile(sp, spec, 0o600); err != nil {
		fmt.Fprintf(stderr, "archive-store: %v\n", err)
		return 1
	}
	exe, _ := os.Executable()
	c := exec.Command(exe)
	c.Env = append(os.Environ(), childEnv+"="+sp)
	c.Stderr = stderr
	out, err := c.Output()
	if err != nil {
		fmt.Fprintf(stderr, "archive-store: archive: %v\n", err)
		return 1
	}
	var res childResult
	if err := json.Unmarshal(out, &res); err != nil || res.Err != "" {
		fmt.Fprintf(stderr, "archive-store: archive: %v %s\n", err, res.Err)
		return 1
	}
	rss := rusage.PeakKiB(c.ProcessState)
	ours := float64(res.Freed) / (1 << 20) / res.Seconds
	fmt.Fprintf(stdout, "prosewash wash archive: %d sessions, %.1f MiB in %.1fs = %.1f MiB/s, %.1f:1, peak RSS %.1f MiB\n",
		res.Archived, float64(res.Freed)/(1<<20), res.Seconds, ours, float64(res.Freed)/float64(max(1, res.Compressed)), float64(rss)/1024)
	fmt.Fprintf(stdout, "throughput ratio against the peer: %.2f (each file hashed, compressed, fsynced, read back and verified, then deleted by compare-and-swap, all journalled)\n", ours/peerMiBs)
	return 0
}

// child archives the store and prints its figures as JSON.
func child(specPath string, stdout io.Writer) int {
	b, err := os.ReadFile(specPath)
	if err != nil {
		return 1
	}
	var s childSpec
	if err := json.Unmarshal(b, &s); err != nil {
		return 1
	}
	o := archive.Options{ConfigDir: s.ConfigDir, Store: s.Store, Archive: s.Archive, Root: s.Root, StateDir: s.State,
		After: 14 * 24 * time.Hour, Now: func() time.Time { return s.Now }, Version: "bench"}
	t0 := time.Now()
	rep, err := archive.Run(o, false, nil)
	res := childResult{Archived: rep.Archived, Freed: rep.Freed, Compressed: rep.Compressed, Seconds: time.Since(t0).Seconds()}
	if err != nil {
		res.Err = err.Error()
	}
	_ = json.NewEncoder(stdout).Encode(res)
	return 0
}
