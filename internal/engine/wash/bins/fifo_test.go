//go:build unix

package bins

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO at the death log is an error naming it, for the sweep that appends to it and for
// the listing that reads it, never a wait for a reader or writer that never comes; the
// sweep's destructions stand, and what it kept is still there.
func TestDeathLogFIFOIsAnErrorNotAHang(t *testing.T) {
	s := newStore(t)
	bank(t, s, Quick, base.Add(-40*Day), "old\n")
	fresh := bank(t, s, Quick, base.Add(-time.Hour), "fresh\n")
	if err := syscall.Mkfifo(s.DeathLog(), 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan SweepReport, 1)
	go func() { done <- s.Sweep(Quick, base, DefaultPolicy(Quick, 0)) }()
	var rep SweepReport
	select {
	case rep = <-done:
	case <-time.After(time.Minute):
		t.Fatal("the sweep still waits after a minute on the death log's FIFO")
	}
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), s.DeathLog()+": refused: not a regular file") {
		t.Errorf("sweep errors %v, want one naming the death log", rep.Errors)
	}
	if _, err := s.Get(fresh.ID); err != nil {
		t.Errorf("the fresh event is gone: %v", err)
	}
	read := make(chan error, 1)
	go func() { _, err := s.ReadDeathLog(); read <- err }()
	select {
	case err := <-read:
		if err == nil || !strings.Contains(err.Error(), s.DeathLog()+": refused: not a regular file") {
			t.Errorf("ReadDeathLog: %v, want a refusal naming the death log", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ReadDeathLog still waits after a minute on a FIFO")
	}
}
