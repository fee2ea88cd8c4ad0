//go:build unix

package validate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

func TestRunPlan(t *testing.T) {
	needSh(t)
	type want struct {
		status Status
		reason string
	}
	tests := []struct {
		name    string
		level   Level
		cmds    Commands
		overall Status
		steps   []want
	}{
		{"syntax runs nothing", Syntax, Commands{Test: sh("exit 1")}, OK, nil},
		{"format check passes", Format, Commands{Format: sh("exit 0")}, OK,
			[]want{{OK, "format command exited 0"}}},
		{"format check fails", Format, Commands{Format: sh("echo needs formatting; exit 1")}, Failed,
			[]want{{Failed, "format command exited 1"}}},
		{"project runs format first", Project, Commands{Format: sh("exit 0"), Build: sh("exit 2")}, Failed,
			[]want{{OK, "format"}, {Failed, "project command exited 2"}}},
		{"failure stops later levels", Tests, Commands{Format: sh("exit 1"), Build: sh("exit 0"), Test: sh("exit 0")}, Failed,
			[]want{{Failed, "format command exited 1"}, {Unchecked, "not run"}, {Unchecked, "not run"}}},
		{"unconfigured lower levels are unchecked", Tests, Commands{Test: sh("exit 0")}, OK,
			[]want{{Unchecked, "not configured (commands.format)"}, {Unchecked, "not configured (commands.build)"}, {OK, "tests command exited 0"}}},
		{"tests fail", Tests, Commands{Build: sh("exit 0"), Test: sh("exit 1")}, Failed,
			[]want{{Unchecked, "not configured"}, {OK, "project"}, {Failed, "tests command exited 1"}}},
		{"missing program fails the step", Tests, Commands{Test: []string{"/nonexistent/prosewash-test"}}, Failed,
			[]want{{Unchecked, ""}, {Unchecked, ""}, {Failed, "could not start"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlan(tc.level, Syntax, tc.cmds)
			if err != nil {
				t.Fatal(err)
			}
			var started []Level
			out := RunPlan(context.Background(), p, RunOptions{Dir: t.TempDir(), OnStart: func(l Level, pid int) { started = append(started, l) }})
			if out.Status != tc.overall {
				t.Errorf("status = %s; want %s (%+v)", out.Status, tc.overall, out.Steps)
			}
			if len(out.Steps) != len(tc.steps) {
				t.Fatalf("%d steps; want %d", len(out.Steps), len(tc.steps))
			}
			ran := 0
			for i, w := range tc.steps {
				s := out.Steps[i]
				if s.Status != w.status || !strings.Contains(s.Reason, w.reason) {
					t.Errorf("step %s: %s %q; want %s containing %q", s.Level, s.Status, s.Reason, w.status, w.reason)
				}
				if s.Command != nil {
					ran++
				}
			}
			if len(started) != ran {
				t.Errorf("OnStart called for %v; %d commands ran", started, ran)
			}
		})
	}
}

func TestRunPlanRewritingFormatterFails(t *testing.T) {
	needSh(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "a.go")
	if err := os.WriteFile(file, []byte("package a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A formatter that rewrites the file and exits 0, like "gofmt -w".
	p, err := NewPlan(Format, Syntax, Commands{Format: sh("printf 'package a\\n\\n' > a.go")})
	if err != nil {
		t.Fatal(err)
	}
	out := RunPlan(context.Background(), p, RunOptions{Dir: dir, Watch: []string{file}})
	if out.Status != Failed || !strings.Contains(out.Steps[0].Reason, "modified "+file) || !strings.Contains(out.Steps[0].Reason, "check mode") {
		t.Errorf("outcome = %s %q; want a failure naming the file and asking for a check mode", out.Status, out.Steps[0].Reason)
	}
}

func TestRunPlanTimeout(t *testing.T) {
	needSh(t)
	p, err := NewPlan(Tests, Syntax, Commands{Test: sh("sleep 300")})
	if err != nil {
		t.Fatal(err)
	}
	out := RunPlan(context.Background(), p, RunOptions{Dir: t.TempDir(), Timeout: 200 * time.Millisecond})
	last := out.Steps[len(out.Steps)-1]
	if out.Status != Failed || last.Command == nil || !last.Command.TimedOut || !strings.Contains(last.Reason, "timed out") {
		t.Errorf("outcome = %s %q", out.Status, last.Reason)
	}
}
