package state

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Two hooks racing on one event report a thing once between them.
func TestOnceAcrossRacers(t *testing.T) {
	dir := t.TempDir()
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if Once(dir, "k") {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d winners, want 1", wins.Load())
	}
	if !Once(dir, "other") || Once(dir, "other") {
		t.Error("a new key must report once")
	}
}
