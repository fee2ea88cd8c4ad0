package lane

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/judge"
)

// A line new to the ledger is dated by its file's modification time (never later than now),
// keeps its first date while it stays, and is forgotten once it is gone.
func TestAgesLedger(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "CLAUDE.md")
	old := time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC)
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	content := []byte("# Rules\n\n- always run the linter before pushing\n")
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	a := loadAges(dir)
	a.note(map[string][]byte{p: content}, now)
	if err := a.save(dir); err != nil {
		t.Fatal(err)
	}
	h := judge.LineHash([]byte("- always run the linter before pushing"))
	if got, ok := loadAges(dir).FirstSeen(h); !ok || !got.Equal(old) {
		t.Fatalf("first seen %v %v, want the file's mtime %v", got, ok, old)
	}
	// Later, a new line: dated now (the file was just written); the old line keeps its date.
	content2 := append(content, "- a new rule\n"...)
	if err := os.WriteFile(p, content2, 0o644); err != nil {
		t.Fatal(err)
	}
	later := now.Add(24 * time.Hour)
	a = loadAges(dir)
	a.note(map[string][]byte{p: content2}, later)
	if err := a.save(dir); err != nil {
		t.Fatal(err)
	}
	b := loadAges(dir)
	if got, _ := b.FirstSeen(h); !got.Equal(old) {
		t.Errorf("the old line was re-dated: %v", got)
	}
	if got, ok := b.FirstSeen(judge.LineHash([]byte("- a new rule"))); !ok || got.After(later) {
		t.Errorf("the new line: %v %v", got, ok)
	}
	// Gone lines are forgotten.
	b.note(map[string][]byte{p: []byte("- a new rule\n")}, later)
	if _, ok := b.FirstSeen(h); ok {
		t.Error("a removed line is still in the ledger")
	}
	if len(b.Days) != 1 {
		t.Errorf("ledger %v", b.Days)
	}
}
