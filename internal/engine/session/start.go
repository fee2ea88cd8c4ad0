package session

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/txn"
)

// Start is what a session start has to say: a line for the user and
// context for the model, either empty.
type Start struct {
	User  string
	Model string
}

// Start starts (or, on resume, touches) the session's record, so it is the
// most recent one, warns when an interrupted run needs recovering, and
// lets the memory lane measure the memory this platform loads.
func (s *Session) Start() (Start, error) {
	stateDir, err := s.Project.StateDir()
	if err != nil {
		return Start{}, err
	}
	rec, err := scope.Open(stateDir, s.ID)
	if err != nil {
		return Start{}, err
	}
	if err := touch(rec.File(), s.env.now()); err != nil {
		return Start{}, err
	}
	var st Start
	if ids := txn.Interrupted(stateDir); len(ids) > 0 {
		runs := strings.Join(ids, ", ")
		st.User = fmt.Sprintf("prosewash: an interrupted clean run (%s) needs 'prosewash recover' before anything is cleaned", runs)
		st.Model = fmt.Sprintf("prosewash: an interrupted clean run (%s) left files of this project mid-transaction. "+
			"Tell the user to run `prosewash recover` in a terminal before you edit files in this project; "+
			"until then prosewash cleans nothing.", runs)
	}
	// The memory lane measures the always-loaded memory and says one line
	// when it is not lean. Its failure must not hide the warning above.
	if res, err := s.Lane().Measure(s.ID); err == nil && res.Context != "" {
		st.Model = JoinLines(st.Model, res.Context)
	} else if err != nil && st.User == "" && state.Once(stateDir, "wash-gauge:"+err.Error()) {
		st.User = "prosewash: memory gauge skipped: " + OneLine(err.Error())
	}
	return st, nil
}

func touch(path string, now time.Time) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create session record dir: %w", err)
	}
	f, err := fsx.OpenWriteRegular(path, os.O_APPEND, true)
	if err != nil {
		return fmt.Errorf("start session record: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("start session record: %w", err)
	}
	return os.Chtimes(path, now, now)
}
