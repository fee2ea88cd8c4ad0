package region

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkLinear classifies small and big (about ten times small) and fails
// when the big input costs far more than ten times the small one. It tests
// growth, never an absolute time: each size is timed as the best of several
// runs after a collection, in the process's CPU time where the platform
// gives it (a machine shared by a dozen processes stretches wall time by
// whatever else runs, CPU time far less), so a busy machine slows both
// alike.
func checkLinear(t *testing.T, name string, small, big []byte, classify func([]byte) error) {
	t.Helper()
	checkGrowth(t, name, small, big, 4, classify)
}

// checkGrowth fails when big costs more than factor times as much per
// byte as small. Both sizes should be past the caches' reach (tens of
// kilobytes of input and up): a small input whose working set fits in
// the cache costs less per byte, which a ratio reads as growth.
func checkGrowth(t *testing.T, name string, small, big []byte, factor float64, classify func([]byte) error) {
	t.Helper()
	clock := func() time.Duration {
		if c := processCPU(); c >= 0 {
			return time.Duration(c)
		}
		return time.Duration(time.Now().UnixNano())
	}
	// timed returns the least time of up to five runs; given a limit, it
	// stops once within it, or after a first run eight times past it
	// (load does not make up that much CPU time).
	timed := func(src []byte, limit time.Duration) time.Duration {
		best := time.Duration(1 << 62)
		for r := range 5 {
			runtime.GC()
			start := clock()
			if err := classify(src); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			best = min(best, clock()-start)
			if limit > 0 && (best <= limit || r == 0 && best > 8*limit) {
				break
			}
		}
		return best
	}
	size := float64(len(big)) / float64(len(small))
	// Load from other processes only ever inflates a ratio, and a
	// superlinear classifier exceeds the bound on every attempt, so a
	// ratio within the bound on any of three attempts is a pass.
	var ratio float64
	for range 3 {
		ts := max(timed(small, 0), time.Microsecond)
		limit := time.Duration(factor * size * float64(ts))
		tb := timed(big, limit)
		ratio = float64(tb) / float64(ts)
		t.Logf("%s: %d bytes %v, %d bytes %v: %.1fx the input took %.1fx the time", name, len(small), ts, len(big), tb, size, ratio)
		if tb <= limit {
			return
		}
		if tb > 8*limit {
			break
		}
	}
	t.Errorf("%s: %.1fx the input took %.0fx the time: not linear", name, size, ratio)
}

// adversarialShape is one input shaped to make a classifier superlinear:
// head, then unit k times, middle, tail k times.
type adversarialShape struct {
	name                     string
	head, unit, middle, tail string
}

// gen returns the shape at about n bytes.
func (s adversarialShape) gen(n int) []byte {
	k := max(n-len(s.head)-len(s.middle), 0) / (len(s.unit) + len(s.tail))
	return []byte(s.head + strings.Repeat(s.unit, k) + s.middle + strings.Repeat(s.tail, k))
}

// readShapes reads testdata/adversarial/NAME.jsonl: a JSON array of five
// strings a line, name, head, unit, middle and tail; # starts a comment.
func readShapes(t *testing.T, name string) []adversarialShape {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "adversarial", name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var shapes []adversarialShape
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var f []string
		if err := json.Unmarshal([]byte(line), &f); err != nil || len(f) != 5 || len(f[2])+len(f[4]) == 0 {
			t.Fatalf("%s.jsonl:%d: want five strings, a unit or tail not both empty: %v", name, i+1, err)
		}
		shapes = append(shapes, adversarialShape{name: f[0], head: f[1], unit: f[2], middle: f[3], tail: f[4]})
	}
	return shapes
}

// TestMarkdownLinear holds the Markdown scanner linear on every
// adversarial shape: five times the input may cost at most 12.5 times the
// time (a quadratic scanner costs 25 times; goldmark's thematic break
// test, mirrored at every container of a line, cost 40 times and more).
func TestMarkdownLinear(t *testing.T) {
	for _, s := range readShapes(t, "markdown") {
		t.Run(s.name, func(t *testing.T) {
			checkGrowth(t, "markdown "+s.name, s.gen(40000), s.gen(200000), 2.5, func(src []byte) error {
				_, err := classifyMarkdown(src)
				return err
			})
		})
	}
}
