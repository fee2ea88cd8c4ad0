package txn

import (
	"os"
	"time"
)

// EnvFailpoint names the variable that arms a failpoint.
const EnvFailpoint = "PROSEWASH_FAILPOINT"

// Failpoints: with PROSEWASH_FAILPOINT=<name> the process kills itself with
// SIGKILL (TerminateProcess on Windows) when it reaches that step, leaving
// the state dir exactly as a power cut or kill -9 would. Tests use them to
// prove that Recover returns every file to its original bytes after a crash
// at each step. They are listed here in step order; each is triggered at
// one place, next to the step it names.
const (
	// FailArchivingOne: journal "prepared", the first archive's compressed
	// copy written and fsynced beside its destination, not yet moved there.
	FailArchivingOne = "archiving-one"
	// FailArchivedOne: the first archive moved into place and read back
	// verified; its hash not journalled yet, the others not yet written.
	FailArchivedOne = "archived-one"
	// FailBackedUp: the backups written, read back and indexed, no
	// journal yet (a run killed at its very start). Not in the crash tests'
	// list of every run's failpoints (failpointNames):
	// what a recovery then finds is no run, only the backups (orphans, or
	// nothing at all for a run with nothing to back up).
	FailBackedUp = "backed-up"
	// FailPrepared: backups (and archives) written and read back, journal
	// "prepared", no user file touched yet.
	FailPrepared = "prepared"
	// FailInstallingOne: every file's intent is journalled (one save for
	// the run), no swap has happened.
	FailInstallingOne = "installing-one"
	// FailInstalledOne: the first file is swapped in, the others not yet
	// (its directory not yet fsynced, nothing journalled done).
	FailInstalledOne = "installed-one"
	// FailInstalled: every file is installed and the journal says
	// "installed".
	FailInstalled = "installed"
	// FailValidating: fired by [Validation.Failpoint], which the caller
	// invokes while its validation command is running (journal
	// "validating").
	FailValidating = "validating"
	// FailCommitted: the journal says "committed", backups not yet removed.
	FailCommitted = "committed"
	// FailRollingBack: the journal says "rolling-back", nothing restored.
	FailRollingBack = "rolling-back"
	// FailRollingBackOne: the first file has been restored (in a rollback
	// or in Recover).
	FailRollingBackOne = "rolling-back-one"
	// FailRestored: the journal says "restored", not yet removed.
	FailRestored = "restored"
)

// failpoint kills the process when getenv arms name. getenv is injected
// (never os.Getenv directly) so that tests and callers decide what arms it.
func failpoint(getenv func(string) string, name string) {
	if getenv == nil || getenv(EnvFailpoint) != name {
		return
	}
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Kill()
	}
	// The kill is asynchronous on some systems; never run the next step.
	for {
		time.Sleep(time.Hour)
	}
}
