package txn

import (
	"errors"
	"testing"
	"time"
)

// The end-of-turn lock: a second hook of the same session gives way at
// once; another session's waits for the holder, then takes it.
func TestAcquireTurn(t *testing.T) {
	dir := t.TempDir()
	release, err := AcquireTurn(dir, "s1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// The holder never lets go here: returning at all means not waiting.
	_, err = AcquireTurn(dir, "s1", time.Hour)
	var le *LockedError
	if !errors.As(err, &le) || le.Holder.RunID != "s1" {
		t.Fatalf("same session: %v, want a LockedError naming s1", err)
	}
	if _, err := AcquireTurn(dir, "s2", 50*time.Millisecond); !errors.As(err, &le) {
		t.Fatalf("other session with the lock held past its wait: %v, want a LockedError", err)
	}
	done := make(chan error, 1)
	go func() {
		r2, err := AcquireTurn(dir, "s2", 5*time.Second)
		if err == nil {
			r2()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	release()
	if err := <-done; err != nil {
		t.Fatalf("other session after the holder let go: %v", err)
	}
}
