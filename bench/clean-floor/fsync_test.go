package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// fsyncsPerFile bounds what a clean run may add per file: the temporary
// file of its swap, its share of one fsync per directory, and its backup
// (in one pack for the whole run, so a share of one fsync too).
const fsyncsPerFile = 1.2

// perRunFsyncs bounds what a run costs whatever its size: the journal's
// saves (a constant number, each a temporary file and a directory fsync),
// the backup pack and its directory, the lock and state files.
const perRunFsyncs = 40

// TestCleanFsyncsPerFile counts, with strace, the fsync family a real
// `prosewash clean .` calls on 20 and on 2,000 small files (20 to a
// directory, one carrier each): past a constant per run, a constant per
// file. It fails on a journal saved once per file (7 fsyncs a file) or a
// backup fsynced per file.
func TestCleanFsyncsPerFile(t *testing.T) {
	strace := testtool.LookPath(t, "strace", "apt-get install strace")
	goBin := testtool.LookPath(t, "go", "the go toolchain builds the binary under test")
	if testing.Short() {
		t.Skip("-short: builds prosewash and cleans 2,000 files under strace")
	}
	work := t.TempDir()
	pw := filepath.Join(work, "prosewash")
	build := exec.Command(goBin, "build", "-o", pw, "./cmd/prosewash")
	build.Dir = testtool.RepoRoot(t)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	b := &bench{pw: pw}
	count := func(n int) int {
		dir := filepath.Join(work, strconv.Itoa(n))
		paths, err := corpus(filepath.Join(dir, "repo"), n)
		if err != nil {
			t.Fatal(err)
		}
		trace := filepath.Join(dir, "strace.txt")
		cmd := exec.Command(strace, "-f", "-c", "-o", trace, "-e", "trace=fsync,fdatasync,syncfs,sync,sync_file_range,msync", pw, "clean", ".")
		cmd.Dir, cmd.Env = filepath.Join(dir, "repo"), b.env(dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%d files: %v\n%s", n, err, out)
		}
		if left := dirty(paths); left > 0 {
			t.Fatalf("%d files: %d not cleaned", n, left)
		}
		return syncCalls(t, trace)
	}
	small, large := count(20), count(2000)
	perFile := float64(large-small) / (2000 - 20)
	t.Logf("fsync-family calls: %d for 20 files, %d for 2000: %.2f per file, %.0f per run", small, large, perFile, float64(small)-perFile*20)
	if perFile > fsyncsPerFile {
		t.Errorf("%.2f fsyncs per file (%d for 20 files, %d for 2000), want at most %.1f", perFile, small, large, fsyncsPerFile)
	}
	if c := float64(small) - perFile*20; c > perRunFsyncs {
		t.Errorf("%.0f fsyncs per run, want at most %d", c, perRunFsyncs)
	}
}

// syncCalls sums the calls column of strace -c's table.
func syncCalls(t *testing.T, trace string) int {
	f, err := os.Open(trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 5 || fs[len(fs)-1] == "total" {
			continue
		}
		switch fs[len(fs)-1] {
		case "fsync", "fdatasync", "syncfs", "sync", "sync_file_range", "msync":
			calls, err := strconv.Atoi(fs[3])
			if err != nil {
				t.Fatalf("strace line %q", sc.Text())
			}
			n += calls
		}
	}
	return n
}
