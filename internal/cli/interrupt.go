package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"time"
)

// interruptGrace is how long a command may take to stop after SIGINT or
// SIGTERM before prosewash exits without it; criticalCap bounds the wait
// for one that is putting files back.
const (
	interruptGrace = 800 * time.Millisecond
	criticalCap    = 15 * time.Second
)

// interrupt is what SIGINT and SIGTERM do to one command. The first signal
// cancels the context: commands stop at their next safe point and roll
// back what they started, the way a failed validation does, so no
// interrupt leaves a journal for recover. A command still running a
// second later is left behind and prosewash exits (130): whatever it was
// blocked on (a pipe nobody writes, a stdin never closed) cannot keep a
// person's Ctrl-C from working. Only a command inside a transaction's
// critical work (it holds a file lock or lease) is waited for, up to
// criticalCap, so its files are put back; a second signal says so.
type interrupt struct {
	ctx      context.Context
	cancel   context.CancelFunc
	sigs     chan os.Signal
	critical func() bool
	u        *ui

	mu      sync.Mutex
	caught  bool        // the signals are caught
	stopped bool        // stop ran: they never will be
	later   *time.Timer // catches them when a lazy command outlasts its delay
}

// armDelay is when an agent hook answered in process starts catching
// SIGINT and SIGTERM ([lazyInterrupt]): well above the few milliseconds
// such a hook takes, well below anything a person waits for.
const armDelay = 50 * time.Millisecond

func interruptible(u *ui, critical func() bool) *interrupt {
	in := newInterrupt(u, critical)
	in.arm()
	return in
}

// lazyInterrupt is interruptible for a command that runs no transaction
// and usually ends within milliseconds: it catches the signals only from
// armDelay on, or once the command calls arm. os/signal's set-up is a
// thread locked for the signal mask, a template thread and the signal
// loop, half the threads and most of the context switches of a
// post-tool-use hook that is over long before a signal could come. A
// signal before then ends the process by its default action, which is
// what a kill -9 does, and what such a command writes is written so that
// it is whole after one.
func lazyInterrupt(u *ui, critical func() bool) *interrupt {
	in := newInterrupt(u, critical)
	in.later = time.AfterFunc(armDelay, in.arm)
	return in
}

func newInterrupt(u *ui, critical func() bool) *interrupt {
	ctx, cancel := context.WithCancel(context.Background())
	return &interrupt{ctx: ctx, cancel: cancel, sigs: make(chan os.Signal, 4), critical: critical, u: u}
}

// arm starts catching the signals, once; a command about to start work
// that a signal must roll back calls it first.
func (in *interrupt) arm() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.caught || in.stopped {
		return
	}
	in.caught = true
	signal.Notify(in.sigs, interruptSignals()...)
}

// armSignals is e.arm where there is one.
func (e *env) armSignals() {
	if e.arm != nil {
		e.arm()
	}
}

func (in *interrupt) stop() {
	in.mu.Lock()
	in.stopped = true
	if in.later != nil {
		in.later.Stop()
	}
	caught := in.caught
	in.mu.Unlock()
	if caught {
		signal.Stop(in.sigs)
	}
	in.cancel()
}

// wait runs the command and returns its status, or exitInterrupted when
// it does not stop in time after an interrupt.
func (in *interrupt) wait(run func() int) int {
	done := make(chan int, 1)
	go func() { done <- run() }()
	var grace <-chan time.Time
	var capped time.Time
	for {
		select {
		case code := <-done:
			return code
		case <-in.sigs:
			if in.ctx.Err() == nil {
				in.cancel()
				grace = time.After(interruptGrace)
				capped = time.Now().Add(criticalCap)
				continue
			}
			if !in.critical() {
				return in.leave()
			}
			in.u.warnf("interrupted again: still putting files back, wait (kill -9 would leave the run for 'prosewash recover')")
		case <-grace:
			if !in.critical() || time.Now().After(capped) {
				return in.leave()
			}
			grace = time.After(100 * time.Millisecond)
		}
	}
}

// leave ends prosewash without the command that did not stop.
func (in *interrupt) leave() int {
	in.u.warnf("interrupted: stopped without waiting for the command; if it was changing files, 'prosewash status' says whether 'prosewash recover' is needed")
	return exitInterrupted
}
