package validate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseLevel(t *testing.T) {
	for _, l := range Levels() {
		got, err := ParseLevel(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", l.String(), got, err, l)
		}
	}
	_, err := ParseLevel("test")
	if err == nil || !strings.Contains(err.Error(), "syntax, format, project, tests") {
		t.Errorf("ParseLevel(test) error = %v; want the allowed set named", err)
	}
	if !(Syntax < Format && Format < Project && Project < Tests) {
		t.Error("levels are not ordered")
	}
	if Max(Tests, Syntax) != Tests || Max(Format, Project) != Project {
		t.Error("Max does not pick the stronger level")
	}
}

func TestNewPlan(t *testing.T) {
	fmtCmd := []string{"fmtcheck"}
	build := []string{"go", "build", "./..."}
	test := []string{"go", "test", "./..."}
	all := Commands{Format: fmtCmd, Build: build, Test: test}
	tests := []struct {
		name                 string
		configured, demanded Level
		cmds                 Commands
		applied              Level
		steps                []Step
		missing              *MissingCommandError
	}{
		{name: "syntax needs nothing", configured: Syntax, demanded: Syntax, applied: Syntax},
		{name: "format", configured: Format, demanded: Syntax, cmds: all, applied: Format,
			steps: []Step{{Format, fmtCmd}}},
		{name: "project runs format too", configured: Project, cmds: all, applied: Project,
			steps: []Step{{Format, fmtCmd}, {Project, build}}},
		{name: "tests runs every configured level", configured: Tests, cmds: all, applied: Tests,
			steps: []Step{{Format, fmtCmd}, {Project, build}, {Tests, test}}},
		{name: "demand escalates", configured: Syntax, demanded: Tests, cmds: all, applied: Tests,
			steps: []Step{{Format, fmtCmd}, {Project, build}, {Tests, test}}},
		{name: "configured stronger than demand", configured: Project, demanded: Format, cmds: all, applied: Project,
			steps: []Step{{Format, fmtCmd}, {Project, build}}},
		{name: "lower level unconfigured is a skipped step", configured: Tests, cmds: Commands{Test: test}, applied: Tests,
			steps: []Step{{Format, nil}, {Project, nil}, {Tests, test}}},
		{name: "missing format command", configured: Format, cmds: Commands{Test: test},
			missing: &MissingCommandError{Level: Format, Key: "commands.format", Available: Syntax}},
		{name: "missing build command", configured: Project, cmds: Commands{Format: fmtCmd},
			missing: &MissingCommandError{Level: Project, Key: "commands.build", Available: Format}},
		{name: "demanded tests without test command", configured: Syntax, demanded: Tests, cmds: Commands{Build: build},
			missing: &MissingCommandError{Level: Tests, Key: "commands.test", Demanded: true, Available: Project}},
		{name: "empty argv counts as missing", configured: Tests, cmds: Commands{Test: []string{}},
			missing: &MissingCommandError{Level: Tests, Key: "commands.test", Available: Syntax}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlan(tc.configured, tc.demanded, tc.cmds)
			if tc.missing != nil {
				var me *MissingCommandError
				if !errors.As(err, &me) {
					t.Fatalf("err = %v; want *MissingCommandError", err)
				}
				if *me != *tc.missing {
					t.Fatalf("err = %+v; want %+v", *me, *tc.missing)
				}
				if !strings.Contains(err.Error(), tc.missing.Key) || !strings.Contains(err.Error(), tc.missing.Level.String()) {
					t.Errorf("message %q does not name the level and key", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Applied != tc.applied {
				t.Errorf("applied = %v; want %v", p.Applied, tc.applied)
			}
			if !reflect.DeepEqual(p.Steps, tc.steps) {
				t.Errorf("steps = %v; want %v", p.Steps, tc.steps)
			}
		})
	}
}
