//go:build unix

package clean

import (
	"bytes"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/region"
)

// TestStructureProofLinear holds the structure proof of a Markdown file
// linear in its size on every adversarial shape the classifier's own test
// reads (region/testdata/adversarial/markdown.jsonl): the candidate with
// the carrier removed is classified and, when goldmark can read it in
// linear time, read by goldmark with the input. Five times the input may
// cost at most 12.5 times the CPU time; goldmark on one line of nested
// list markers cost 25 times and more. A shape beyond goldmark's reach
// must be named unproved, not read.
func TestStructureProofLinear(t *testing.T) {
	data, err := os.ReadFile("../region/testdata/adversarial/markdown.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		var f []string
		if line == "" || line[0] == '#' {
			continue
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil || len(f) != 5 {
			t.Fatalf("markdown.jsonl:%d: want five strings: %v", i+1, err)
		}
		gen := func(n int) []byte {
			k := max(n-len(f[1])-len(f[3]), 0) / (len(f[2]) + len(f[4]))
			return []byte(f[1] + strings.Repeat(f[2], k) + f[3] + strings.Repeat(f[4], k))
		}
		t.Run(f[0], func(t *testing.T) {
			small, big := gen(40000), gen(200000)
			cost := func(src []byte) time.Duration { return proofCPU(t, src) }
			var ratio float64
			for range 3 {
				ts, tb := cost(small), cost(big)
				ratio = float64(tb) / float64(max(ts, time.Microsecond))
				t.Logf("%d bytes %v, %d bytes %v: %.1fx the time", len(small), ts, len(big), tb, ratio)
				if ratio <= 12.5 {
					return
				}
			}
			t.Errorf("5x the input took %.0fx the time on three attempts: not linear", ratio)
		})
	}
}

// proofCPU proves the structure of src with its first carrier removed and
// returns the least CPU time of five runs. A difference fails the test
// unless it is an unproved reading.
func proofCPU(t *testing.T, src []byte) time.Duration {
	t.Helper()
	at := bytes.Index(src, []byte("\u200b"))
	edits := []splice{{start: at, end: at + len("\u200b")}}
	cand := applySplices(src, edits)
	m, err := region.Classify("a.md", src)
	if err != nil {
		t.Fatal(err)
	}
	best := time.Duration(1 << 62)
	for range 5 {
		runtime.GC()
		start := cpuNow()
		d := proveStructure("a.md", src, m, cand, edits, true)
		best = min(best, cpuNow()-start)
		if d != nil && d.unproved == "" {
			t.Fatalf("removing the carrier changes the structure: %s", d.describe(src))
		}
	}
	return best
}

// cpuNow is the process's user and system CPU time: on a machine shared
// with other work, wall time grows with whatever else runs.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
