package cli

import (
	"errors"
	"fmt"
)

// Exit codes. This is the only place that decides them; --help lists them.
const (
	exitOK       = 0 // success; nothing found; nothing lost
	exitFindings = 1 // the answer is "yes, look": findings, dropped tokens, files changed by a hook, unresolved recovery
	exitUsage    = 2 // usage error, invalid configuration, unreadable input
	exitRefused  = 3 // the run (or part of it) was refused or rolled back to keep files safe

	exitInternal    = 70  // a bug in prosewash (a panic), reported as such; EX_SOFTWARE
	exitInterrupted = 130 // SIGINT or SIGTERM: stopped at a safe point, files put back
)

const exitStatusHelp = `EXIT STATUS
  0  success: nothing found, nothing lost, the run completed
  1  something needs a look: carriers found (check), tokens dropped (wash verify),
     files changed by a hook that must be reviewed and re-added, recovery unresolved
  2  usage error, invalid configuration, a path that cannot be read
  3  refused: a file or the whole run was refused or rolled back to keep your work safe
     (pending journal, lock held, validation failed, approval missing)
  70 internal error: a bug in prosewash; nothing was left half-written
  130 interrupted (SIGINT or SIGTERM): the run stopped at a safe point and put back
     what it had changed; no 'prosewash recover' needed`

// usageError is a mistake on the command line.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// errFindings makes a command exit 1 after it has printed its own report.
var errFindings = errors.New("findings")

// errRefused makes a command exit 3 after it has printed its own report.
var errRefused = errors.New("refused")

// exitError carries an explicit code with an optional message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// exitCode maps any error a command returns to the process exit status.
func exitCode(err error) int {
	var ee *exitError
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, errFindings):
		return exitFindings
	case errors.Is(err, errRefused):
		return exitRefused
	case errors.As(err, &ue):
		return exitUsage
	}
	return exitUsage
}

// silent reports whether err was already reported by the command itself.
func silent(err error) bool {
	var ee *exitError
	if errors.As(err, &ee) && ee.err == nil {
		return true
	}
	return errors.Is(err, errFindings) || errors.Is(err, errRefused)
}
