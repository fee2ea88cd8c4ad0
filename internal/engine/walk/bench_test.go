package walk

import (
	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/testtool"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// benchCorpus is the Go toolchain's own source tree: real, large, present
// wherever the tests run.
func benchCorpus(b *testing.B) string {
	dir := filepath.Join(testtool.GOROOT(b), "src")
	if _, err := os.Stat(dir); err != nil {
		testtool.Missing(b, "go", fmt.Sprintf("GOROOT/src not found: %v", err))
	}
	return dir
}

// BenchmarkWalkGOROOT walks GOROOT/src with a process callback that runs
// only the fast path, which is what prosewash check does for the vast
// majority of files. It reports files/s and MB/s of file content.
func BenchmarkWalkGOROOT(b *testing.B) {
	dir := benchCorpus(b)
	for _, workers := range []int{1, 0, 4} {
		name := fmt.Sprintf("workers=%d", workers)
		if workers == 0 {
			name = "workers=GOMAXPROCS"
		}
		b.Run(name, func(b *testing.B) {
			benchWalk(b, dir, Options{Workers: workers})
		})
	}
}

func benchWalk(b *testing.B, dir string, opt Options) {
	var files, bytes, plain atomic.Int64
	process := func(f File) (any, error) {
		files.Add(1)
		bytes.Add(int64(len(f.Data)))
		if carrier.Plain(f.Data) {
			plain.Add(1)
		}
		return nil, nil
	}
	emit := func(string, any, error) error { return nil }
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if err := Walk(context.Background(), []string{dir}, opt, process, emit, nil); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time is steadier than wall time on a shared machine.
	b.ReportMetric(float64(cpuTime()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(files.Load())/secs, "files/s")
	b.ReportMetric(float64(bytes.Load())/secs/1e6, "MB/s")
	b.ReportMetric(float64(files.Load())/float64(b.N), "files/op")
	b.ReportMetric(float64(plain.Load())/float64(b.N), "plain/op")
}

// BenchmarkPlain measures the fast path alone on ASCII source text.
func BenchmarkPlain(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(testtool.GOROOT(b), "src", "go", "parser", "parser.go"))
	if err != nil {
		b.Skipf("corpus file not found: %v", err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !carrier.Plain(data) {
			b.Fatal("parser.go is plain ASCII")
		}
	}
}

// BenchmarkIgnored measures the per-entry cost of the ignore decision with a
// typical rule set: a root .gitignore in the style of common templates, a
// nested one, info/exclude and a global excludes file.
func BenchmarkIgnored(b *testing.B) {
	global := &level{rules: parseIgnore([]byte(".DS_Store\n*.swp\n*~\n.idea/\n.vscode/\n"))}
	exclude := &level{parent: global, rules: parseIgnore([]byte("local/\n"))}
	root := &level{parent: exclude, rules: parseIgnore([]byte(
		"*.exe\n*.exe~\n*.dll\n*.so\n*.dylib\n*.test\n*.out\ngo.work\ngo.work.sum\n.env\n" +
			"/bin/\n/dist/\nnode_modules/\n**/testdata/golden/*.tmp\ncoverage.*\n*.log\n!keep.log\n/vendor/\n"))}
	top := &level{parent: root, base: "src/pkg", rules: parseIgnore([]byte("gen_*.go\n!gen_keep.go\n/build/\n"))}
	names := []string{"main.go", "main_test.go", "gen_x.go", "README.md", "testdata", "build", "x.log", "keep.log", "a.exe"}
	b.ResetTimer()
	for b.Loop() {
		for i, name := range names {
			ignored(top, "src/pkg/sub", name, i == 4 || i == 5)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(names)), "ns/entry")
}
