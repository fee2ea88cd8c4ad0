//go:build unix

package txn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// helperEnv carries the path of a helperSpec to a child test process.
const helperEnv = "PROSEWASH_TXN_HELPER"

// helperSpec tells a child process what to do.
type helperSpec struct {
	Mode        string // "run", "append" (read files, append a line, run) or "recover"
	Root, State string
	Ops         []helperOp
	Append      []string // files for "append"
	Line        string   // line for "append"
	Validate    string   // "ok", "fail", "sleep" (runs `sleep 30` as the validation command)
	HumanEdit   *helperEdit
	// RaceEdit is written by an outside party at the RaceAt-th guard call;
	// the guard runs immediately before each swap, so this is an edit that
	// lands between the run's read and its swap of some file.
	RaceEdit     *helperEdit
	RaceAt       int
	RaceDone     string // created right after the racing edit
	Ready        string // created once validation has started
	SleepMS      int    // validation time for "ok"/"fail"
	Test         bool
	AllOrNothing bool
	// RefuseOtherOpeners as in Options.
	RefuseOtherOpeners bool
	Roots              []string
	LockWaitMS         int
	// KillAfterUS makes the child SIGKILL itself that many microseconds
	// after the run starts: a kill at an arbitrary instant, not at a
	// failpoint (inside a temporary file's write, between two syscalls).
	KillAfterUS int64
	Result      string // JSON helperResult is written here on a normal exit
}

type helperOp struct {
	Kind   OpKind
	Path   string
	Data   []byte
	Expect fsx.Hash
	Mode   uint32
	To     string
	Size   int64
	MTime  int64
}

type helperEdit struct {
	Path string
	Data []byte
}

type helperResult struct {
	Err        string
	Files      map[string]Status
	Unresolved bool
	RunUS      int64 // how long the run took
}

// TestHelperProcess is the child side of the crash tests: it runs one
// transaction (or one recovery) as told by the spec, with failpoints read
// from the real environment, and writes its result to a file.
func TestHelperProcess(t *testing.T) {
	specPath := os.Getenv(helperEnv)
	if specPath == "" {
		t.Skip("helper for the crash tests: runs only as their child process")
	}
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	var spec helperSpec
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatal(err)
	}
	res := helperResult{Files: map[string]Status{}}
	switch spec.Mode {
	case "recover":
		rep, err := Recover(spec.State, RecoverOptions{Root: spec.Root, Roots: spec.Roots, Getenv: os.Getenv, LockWait: time.Duration(spec.LockWaitMS) * time.Millisecond})
		if err != nil {
			res.Err = err.Error()
		}
		res.Unresolved = rep.Unresolved
	case "run", "append":
		ops := make([]Op, 0, len(spec.Ops))
		for _, o := range spec.Ops {
			op := Op{Kind: o.Kind, Path: o.Path, Data: o.Data, Expect: o.Expect, Mode: os.FileMode(o.Mode), To: o.To, Size: o.Size}
			if o.MTime != 0 {
				op.ModTime = time.Unix(0, o.MTime)
			}
			ops = append(ops, op)
		}
		for _, p := range spec.Append {
			cur, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			ops = append(ops, Op{Kind: Replace, Path: p, Data: append(cur, spec.Line+"\n"...), Expect: fsx.SHA256(cur)})
		}
		o := Options{Root: spec.Root, Roots: spec.Roots, StateDir: spec.State, Getenv: os.Getenv, Test: spec.Test,
			AllOrNothing: spec.AllOrNothing, LockWait: time.Duration(spec.LockWaitMS) * time.Millisecond,
			RefuseOtherOpeners: spec.RefuseOtherOpeners}
		if spec.RaceEdit != nil {
			calls := 0
			o.Guard = func() error {
				calls++
				if calls == spec.RaceAt {
					if err := os.WriteFile(spec.RaceEdit.Path, spec.RaceEdit.Data, 0o644); err != nil {
						return err
					}
					// Tell the parent the edit happened, whatever the run does next.
					return os.WriteFile(spec.RaceDone, nil, 0o600)
				}
				return nil
			}
		}
		if spec.KillAfterUS > 0 {
			go func() {
				time.Sleep(time.Duration(spec.KillAfterUS) * time.Microsecond)
				_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}()
		}
		start := time.Now()
		r, err := Run(o, ops, func(v *Validation) error { return helperValidate(spec, v) })
		res.RunUS = time.Since(start).Microseconds()
		if err != nil {
			res.Err = err.Error()
		}
		for _, f := range r.Files {
			res.Files[f.Path] = f.Status
		}
	default:
		t.Fatalf("unknown mode %q", spec.Mode)
	}
	out, _ := json.Marshal(res)
	if err := os.WriteFile(spec.Result, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// helperValidate stands in for a validation command.
func helperValidate(spec helperSpec, v *Validation) error {
	if spec.HumanEdit != nil {
		if err := os.WriteFile(spec.HumanEdit.Path, spec.HumanEdit.Data, 0o644); err != nil {
			return err
		}
	}
	if spec.Ready != "" {
		if err := os.WriteFile(spec.Ready, nil, 0o600); err != nil {
			return err
		}
	}
	switch spec.Validate {
	case "sleep":
		cmd := exec.Command("sleep", "30")
		if err := cmd.Start(); err != nil {
			return err
		}
		v.Failpoint()
		return cmd.Wait()
	default:
		v.Failpoint()
		time.Sleep(time.Duration(spec.SleepMS) * time.Millisecond)
		if spec.Validate == "fail" {
			return errors.New("validation failed")
		}
		return nil
	}
}

// child is a running helper process in its own process group.
type child struct {
	cmd    *exec.Cmd
	out    bytes.Buffer
	result string
}

// spawn starts a helper with spec and the failpoint armed ("" for none).
func spawn(t *testing.T, spec helperSpec, failpoint string) *child {
	t.Helper()
	dir := t.TempDir()
	spec.Result = filepath.Join(dir, "result.json")
	b, err := json.Marshal(spec)
	if err != nil {
		t.Fatal(err)
	}
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
	c := &child{result: spec.Result}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	var envv []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, EnvFailpoint+"=") && !strings.HasPrefix(kv, helperEnv+"=") {
			envv = append(envv, kv)
		}
	}
	c.cmd.Env = append(envv, helperEnv+"="+specPath, EnvFailpoint+"="+failpoint)
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := c.cmd.Process.Pid
	// Whatever the child started (a validation command) dies with the test.
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	return c
}

// wait waits for the child and reports whether SIGKILL ended it.
func (c *child) wait(t *testing.T) (killed bool) {
	t.Helper()
	err := c.cmd.Wait()
	if ws, ok := c.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
		_ = syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
		return true
	}
	if err != nil {
		t.Fatalf("helper failed: %v\n%s", err, c.out.String())
	}
	return false
}

func (c *child) res(t *testing.T) helperResult {
	t.Helper()
	b, err := os.ReadFile(c.result)
	if err != nil {
		t.Fatalf("no result from helper: %v\n%s", err, c.out.String())
	}
	var r helperResult
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// run spawns a helper, waits, and returns whether it was killed.
func runChild(t *testing.T, spec helperSpec, failpoint string) (bool, *child) {
	t.Helper()
	c := spawn(t, spec, failpoint)
	return c.wait(t), c
}

func toHelperOps(ops []Op) []helperOp {
	out := make([]helperOp, len(ops))
	for i, o := range ops {
		out[i] = helperOp{Kind: o.Kind, Path: o.Path, Data: o.Data, Expect: o.Expect, Mode: uint32(o.Mode), To: o.To, Size: o.Size}
		if !o.ModTime.IsZero() {
			out[i].MTime = o.ModTime.UnixNano()
		}
	}
	return out
}

func waitForFile(t *testing.T, p string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(p); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s did not appear within %s", p, limit)
}

func describe(spec helperSpec, fp string) string {
	return fmt.Sprintf("failpoint=%q validate=%s test=%v", fp, spec.Validate, spec.Test)
}
