package txn

import (
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzJournalVerify feeds arbitrary bytes to recovery as a journal. Whatever
// it accepts must name only paths inside the trusted root (and outside
// .git) and only backups inside this run's backup directory.
func FuzzJournalVerify(f *testing.F) {
	f.Add([]byte(`{"version":1,"run_id":"r1","root":"ROOT","state":"installed","entries":[{"path":"ROOT/a.md","op":"replace","mode":420,"original_hash":"` + strings.Repeat("a", 64) + `","candidate_hash":"` + strings.Repeat("b", 64) + `","backup":"txn/r1/0000.bak","intent":true,"done":true}]}`))
	f.Add([]byte(`{"version":1,"run_id":"r1","root":"ROOT","state":"prepared","entries":[{"path":"ROOT/../x","op":"delete","original_hash":"` + strings.Repeat("a", 64) + `","backup":"txn/r1/../../x"}]}`))
	f.Add([]byte(`{"version":1,"run_id":"r1","root":"/","state":"validating","entries":[]}`))
	base := f.TempDir()
	root := filepath.Join(base, "root")
	stateDir := filepath.Join(base, "state")
	for _, d := range []string{root, filepath.Join(stateDir, txnDir)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			f.Fatal(err)
		}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jp := filepath.Join(stateDir, txnDir, "r1.json")
		if err := os.WriteFile(jp, []byte(strings.ReplaceAll(string(data), "ROOT", realRoot)), 0o600); err != nil {
			t.Fatal(err)
		}
		j, err := loadJournal(jp)
		if err != nil {
			return
		}
		if err := j.verify(jp, realRoot, nil); err != nil {
			return
		}
		for _, e := range j.Entries {
			if !fsx.Inside(realRoot, e.Path) || e.Path == realRoot || inGitDir(e.Path, realRoot) {
				t.Fatalf("accepted path %q outside %s", e.Path, realRoot)
			}
			if e.Op != Create {
				bp := filepath.Join(stateDir, filepath.FromSlash(e.Backup))
				if !fsx.Inside(filepath.Join(stateDir, txnDir, "r1"), bp) || bp == filepath.Join(stateDir, txnDir, "r1") {
					t.Fatalf("accepted backup %q outside the run's directory", e.Backup)
				}
			}
		}
	})
}
