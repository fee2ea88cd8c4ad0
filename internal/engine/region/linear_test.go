package region

import (
	"runtime"
	"testing"
	"time"
)

// checkLinear classifies small and big (about ten times small) and fails
// when the big input costs far more than ten times the small one. It tests
// growth, never an absolute time: each size is timed as the best of several
// runs after a collection, so a busy machine slows both alike.
func checkLinear(t *testing.T, name string, small, big []byte, classify func([]byte) error) {
	t.Helper()
	measure := func(src []byte) time.Duration {
		best := time.Duration(1 << 62)
		for range 5 {
			runtime.GC()
			start := time.Now()
			if err := classify(src); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			best = min(best, time.Since(start))
		}
		return best
	}
	size := float64(len(big)) / float64(len(small))
	// Load from other processes only ever inflates a ratio, and a
	// superlinear classifier exceeds the bound on every attempt, so a
	// ratio within the bound on any of three attempts is a pass.
	var ratio float64
	for range 3 {
		ts, tb := measure(small), measure(big)
		ratio = float64(tb) / float64(max(ts, time.Microsecond))
		t.Logf("%s: %d bytes %v, %d bytes %v: %.1fx the input took %.1fx the time", name, len(small), ts, len(big), tb, size, ratio)
		if ratio <= 4*size {
			return
		}
	}
	t.Errorf("%s: %.1fx the input took %.0fx the time on three attempts: not linear", name, size, ratio)
}
