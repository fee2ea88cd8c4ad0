package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// The rewritten notice is a private state file per session: the
// project-relative files the end of a turn cleaned, one a line, until the
// start of the next turn takes them.
func rewrittenFile(stateDir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(stateDir, "notices", "rewritten-"+hex.EncodeToString(sum[:12]))
}

func noteRewritten(stateDir, session string, rel []string) error {
	p := rewrittenFile(stateDir, session)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := fsx.OpenWriteRegular(p, os.O_APPEND, true)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(strings.Join(rel, "\n") + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}

// TakeRewritten returns, once, the files prosewash rewrote at the end of
// this session's earlier turns (project-relative), to tell the model at
// the start of the next one: the model's view of them predates the clean.
// Two hooks racing for the note get it once between them.
func (s *Session) TakeRewritten() []string {
	stateDir, err := s.Project.StateDir()
	if err != nil {
		return nil
	}
	p := rewrittenFile(stateDir, s.ID)
	claim := p + ".taken-" + strconv.Itoa(os.Getpid())
	if os.Rename(p, claim) != nil {
		return nil
	}
	b, err := fsx.ReadRegular(claim, 0, false)
	os.Remove(claim)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// RewrittenContext is what to tell the model about files prosewash
// rewrote after the model last saw them (its earlier tool output still
// shows the old text), or "" for none.
func RewrittenContext(rel []string) string {
	if len(rel) == 0 {
		return ""
	}
	shown := rel
	if len(shown) > 10 {
		shown = append(append([]string{}, shown[:10]...), fmt.Sprintf("and %d more", len(rel)-10))
	}
	return fmt.Sprintf("prosewash removed invisible Unicode characters from the comments and documentation text of %s after your last turn; "+
		"the file contents you saw before are stale, so re-read %s before editing.",
		strings.Join(shown, ", "), map[bool]string{true: "it", false: "them"}[len(rel) == 1])
}
