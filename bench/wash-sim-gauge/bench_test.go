package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// BenchmarkSessionStart times the in-process session-start gauge on the fixture; with
// BENCH_MISS set, every call follows a change to the memory index (no cached measurement).
func BenchmarkSessionStart(b *testing.B) {
	base, _ := filepath.EvalSymlinks(b.TempDir())
	root, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	if _, err := fixture(root, home, 40); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PROSEWASH_STATE_DIR": filepath.Join(base, "state")}
	getenv := func(k string) string { return env[k] }
	index := filepath.Join(discover.MemoryDir(discover.Options{Home: home, ProjectRoot: root}), "MEMORY.md")
	tick := time.Now()
	miss := os.Getenv("BENCH_MISS") != ""
	for b.Loop() {
		if miss {
			tick = tick.Add(time.Second)
			_ = os.Chtimes(index, tick, tick)
		}
		p, err := project.Find(project.Options{Root: root, Dir: root, Getenv: getenv, Home: home})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lane.New(p, lane.Options{Home: home, Getenv: getenv}).Measure("bench"); err != nil {
			b.Fatal(err)
		}
	}
}
