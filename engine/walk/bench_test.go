package walk

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
)

// benchCorpus is the Go toolchain's own source tree: real, large, present
// wherever the tests run.
func benchCorpus(b *testing.B) string {
	dir := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("GOROOT/src not found: %v", err)
	}
	return dir
}

// BenchmarkWalkGOROOT walks GOROOT/src with a process callback that runs
// only the fast path, which is what prosewash check does for the vast
// majority of files. It reports files/s and MB/s of file content.
func BenchmarkWalkGOROOT(b *testing.B) {
	dir := benchCorpus(b)
	for _, workers := range []int{1, 0} {
		name := "workers=GOMAXPROCS"
		if workers == 1 {
			name = "workers=1"
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
		if Plain(f.Data) {
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
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "go", "parser", "parser.go"))
	if err != nil {
		b.Skipf("corpus file not found: %v", err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if !Plain(data) {
			b.Fatal("parser.go is plain ASCII")
		}
	}
}
