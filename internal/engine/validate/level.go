package validate

import (
	"fmt"
	"strings"
)

// Level is how much a change must prove before it is kept. Levels are
// ordered: each one is a stronger guarantee than the one before it.
type Level int

const (
	// Syntax is the minimum checks and nothing else; it needs no command.
	Syntax Level = iota
	// Format runs the project's format check command ([commands] format).
	Format
	// Project runs the project's build command ([commands] build).
	Project
	// Tests runs the project's test command ([commands] test).
	Tests
)

// Levels lists every level, weakest first.
func Levels() []Level { return []Level{Syntax, Format, Project, Tests} }

// String returns the name used in configuration and reports.
func (l Level) String() string {
	switch l {
	case Syntax:
		return "syntax"
	case Format:
		return "format"
	case Project:
		return "project"
	case Tests:
		return "tests"
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// ConfigKey names the configuration key holding the level's command, or ""
// for Syntax, which needs none.
func (l Level) ConfigKey() string {
	switch l {
	case Format:
		return "commands.format"
	case Project:
		return "commands.build"
	case Tests:
		return "commands.test"
	}
	return ""
}

// ParseLevel is the inverse of [Level.String].
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels() {
		if l.String() == s {
			return l, nil
		}
	}
	return Syntax, fmt.Errorf("unknown validation level %q (want one of %s)", s, levelNames())
}

func levelNames() string {
	names := make([]string, 0, 4)
	for _, l := range Levels() {
		names = append(names, l.String())
	}
	return strings.Join(names, ", ")
}

// Max returns the stronger of two levels: the level applied is the stronger
// of the configured one and the one the change demands.
func Max(a, b Level) Level {
	if a > b {
		return a
	}
	return b
}

// Min returns the weaker of two levels.
func Min(a, b Level) Level {
	if a < b {
		return a
	}
	return b
}

// Commands are the argv of the project's validation commands. A nil or
// empty argv means the command is not configured.
type Commands struct {
	Format []string
	Build  []string
	Test   []string
}

// For returns the argv that level l runs, nil for Syntax or when missing.
func (c Commands) For(l Level) []string {
	switch l {
	case Format:
		return c.Format
	case Project:
		return c.Build
	case Tests:
		return c.Test
	}
	return nil
}

// Step is one command of a plan.
type Step struct {
	Level Level
	// Argv is nil when the level's command is not configured; such a step
	// is reported as unchecked and not run. Only levels below the applied
	// one can be unconfigured.
	Argv []string
}

// Plan is what validating a change will run.
type Plan struct {
	Configured Level // from the configuration
	Demanded   Level // by the change (regions touched, rewrite stages)
	Applied    Level // the stronger of the two
	// Steps are the command levels from Format up to Applied, weakest first.
	Steps []Step
}

// MissingCommandError refuses a plan whose applied level has no command.
// It is never downgraded silently: the caller decides whether a reduced
// guarantee (Available) is acceptable, and says so.
type MissingCommandError struct {
	Level     Level  // the level that cannot run
	Key       string // the configuration key to set, e.g. "commands.test"
	Demanded  bool   // true when the change demanded the level rather than the configuration
	Available Level  // the strongest level at or below Level that could run
}

func (e *MissingCommandError) Error() string {
	why := "configured"
	if e.Demanded {
		why = "demanded by this change"
	}
	return fmt.Sprintf("validation level %s (%s) needs a command: set %s in .prosewash.toml (the strongest level that could run is %s)",
		e.Level, why, e.Key, e.Available)
}

// NewPlan decides the level to apply and the commands to run. A missing
// command for the applied level is a *MissingCommandError; missing commands
// of lower levels are skipped and reported as unchecked.
func NewPlan(configured, demanded Level, cmds Commands) (Plan, error) {
	p := Plan{Configured: configured, Demanded: demanded, Applied: Max(configured, demanded)}
	if p.Applied < Syntax || p.Applied > Tests {
		return Plan{}, fmt.Errorf("unknown validation level %d", int(p.Applied))
	}
	if p.Applied > Syntax && len(cmds.For(p.Applied)) == 0 {
		avail := Syntax
		for l := p.Applied - 1; l > Syntax; l-- {
			if len(cmds.For(l)) > 0 {
				avail = l
				break
			}
		}
		return Plan{}, &MissingCommandError{
			Level:     p.Applied,
			Key:       p.Applied.ConfigKey(),
			Demanded:  demanded > configured,
			Available: avail,
		}
	}
	for l := Format; l <= p.Applied; l++ {
		argv := cmds.For(l)
		if len(argv) == 0 {
			argv = nil
		}
		p.Steps = append(p.Steps, Step{Level: l, Argv: argv})
	}
	return p, nil
}
