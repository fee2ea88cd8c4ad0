package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/hooks/agent"
)

// The hook command's help names every event of every platform in the
// table, so a platform added there is also documented, and every end of a
// turn gets the long deadline while every other event stays below the
// 30 s install gives it.
func TestHookHelpAndDeadlinesFollowTheTable(t *testing.T) {
	for _, p := range agent.Platforms() {
		line := "prosewash hook " + p.Name + " " + strings.Join(p.Args(), "|")
		if !strings.Contains(hookHelp, line) {
			t.Errorf("hook help lacks %q", line)
		}
		for _, ev := range p.Events {
			d := hookDeadline(p.Name, ev.Arg)
			if ev.Kind == agent.TurnEnd && d != 570*time.Second || ev.Kind != agent.TurnEnd && d >= 30*time.Second {
				t.Errorf("%s %s: deadline %v", p.Name, ev.Arg, d)
			}
		}
	}
}
