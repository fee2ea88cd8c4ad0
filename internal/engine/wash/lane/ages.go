package lane

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// agesVersion versions ages.json; another version is ignored and rewritten.
const agesVersion = 1

// ages is the first-seen ledger of always-loaded prose lines: the age of an entry that
// carries no date of its own. A line new to the ledger is dated by its file's modification
// time (it cannot be younger than that), so a fresh install dates nothing later than it was.
type ages struct {
	V int `json:"v"`
	// Days maps judge.LineHash to the day (days since 1970-01-01 UTC) the line was first seen.
	Days    map[string]int32 `json:"days"`
	changed bool
}

func agesPath(stateDir string) string { return filepath.Join(stateDir, "wash", "ages.json") }

// loadAges reads the ledger; a missing, unreadable or foreign one is empty.
func loadAges(stateDir string) *ages {
	a := &ages{V: agesVersion, Days: map[string]int32{}}
	b, err := fsx.ReadRegular(agesPath(stateDir), 0, false)
	if err != nil {
		return a
	}
	var got ages
	if json.Unmarshal(b, &got) != nil || got.V != agesVersion || got.Days == nil {
		return a
	}
	got.changed = false
	return &got
}

func day(t time.Time) int32 { return int32(t.UTC().Unix() / 86400) }

// FirstSeen answers judge.File.FirstSeen.
func (a *ages) FirstSeen(hash string) (time.Time, bool) {
	d, ok := a.Days[hash]
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(int64(d)*86400, 0).UTC(), true
}

// note records the prose lines of the always-loaded owned files and forgets lines no longer in
// any of them, so the ledger never outgrows the memory.
func (a *ages) note(files map[string][]byte, now time.Time) {
	seen := map[string]bool{}
	for path, content := range files {
		first := now
		if fi, err := os.Stat(path); err == nil && fi.ModTime().Before(now) {
			first = fi.ModTime()
		}
		doc := mdline.Parse(content)
		for _, l := range doc.Lines {
			if l.Kind != mdline.Text && l.Kind != mdline.TableRow {
				continue
			}
			text := bytes.TrimSpace(l.Text(content))
			if len(text) == 0 {
				continue
			}
			h := judge.LineHash(text)
			seen[h] = true
			if _, ok := a.Days[h]; !ok {
				a.Days[h] = day(first)
				a.changed = true
			}
		}
	}
	for h := range a.Days {
		if !seen[h] {
			delete(a.Days, h)
			a.changed = true
		}
	}
}

// save writes the ledger when it changed. It is a cache of ages: a temporary file renamed
// into place, never fsynced (a session start must not wait on the disk; losing it only makes
// entries look younger).
func (a *ages) save(stateDir string) error {
	if !a.changed {
		return nil
	}
	b, err := json.Marshal(a)
	if err != nil {
		return err
	}
	p := agesPath(stateDir)
	if err := state.MkdirPrivate(filepath.Dir(p)); err != nil {
		return err
	}
	tmp := p + "." + strconv.Itoa(os.Getpid()) + ".tmp" // parallel hooks never share one
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
