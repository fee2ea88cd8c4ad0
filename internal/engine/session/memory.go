package session

import (
	"fmt"
	"os"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// MemoryLoaded records a memory file the platform reports it loaded, so the
// gauge measures what the platform really loads instead of re-deriving it.
// A project whose memory lane is off records nothing.
func (s *Session) MemoryLoaded(ld lane.Loaded) error {
	l := s.Lane()
	if !l.Enabled() {
		return nil
	}
	return l.RecordLoaded(s.ID, ld)
}

// SubagentStarted counts one subagent spawn (every spawn carries the
// always-loaded memory again); via says which report it came from
// (lane.ViaSubagentStart, or lane.ViaToolUse for the subagent tool's use).
func (s *Session) SubagentStarted(agentType, agentID, via string) error {
	l := s.Lane()
	if !l.Enabled() {
		return nil
	}
	return l.RecordSpawn(s.ID, agentType, agentID, via)
}

// NoteTranscript records where the session's transcript is (the archive
// reads it); a failure costs only that.
func (s *Session) NoteTranscript(path string) {
	if l := s.Lane(); l.Enabled() {
		_ = l.RecordTranscript(s.ID, path)
	}
}

// ExportID offers the session id to the agent's shell: it appends
// "export PROSEWASH_SESSION=ID" to envFile, a file the platform sources
// before the commands the agent runs, so prosewash clean and the git
// pre-commit hook know which session wrote the files. An id that cannot
// go into a shell line unquoted is not written.
func (s *Session) ExportID(envFile string) error {
	if envFile == "" || !plainID(s.ID) {
		return nil
	}
	f, err := fsx.OpenWriteRegular(envFile, os.O_APPEND, true)
	if err != nil {
		return fmt.Errorf("write %s: %w", envFile, err)
	}
	if _, err := f.WriteString("export PROSEWASH_SESSION=" + s.ID + "\n"); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", envFile, err)
	}
	return f.Close()
}

// plainID reports whether a session id can go into a shell line unquoted.
func plainID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}
