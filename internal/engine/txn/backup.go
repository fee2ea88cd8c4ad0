package txn

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// packName is the one file that holds every original a run backs up, one
// after another: one create and one fsync for the run, where a file per
// backup cost a create and an fsync per file (a journal commit each on
// ext4). Journals of version 1 name a file per backup (NNNN.bak), which
// readBackup still reads.
const packName = "backups.pack"

// indexName is the file in a run's backup directory that lists whose
// originals its backups are.
const indexName = "index.json"

// backupIndexItem is one line of the backup index.
type backupIndexItem struct {
	Backup   string   `json:"backup"` // file name in the directory
	Offset   int64    `json:"offset,omitempty"`
	Size     int64    `json:"size,omitempty"` // in the pack; a .bak file is whole
	Path     string   `json:"path"`
	Original fsx.Hash `json:"original_hash"`
}

// packed reports a backup that is a slice of a pack, not a file of its own.
func packed(backup string) bool { return strings.HasSuffix(backup, "/"+packName) || backup == packName }

// writeBackups writes every original to the run's backup pack, fsyncs it,
// reads each back as recovery will and compares byte for byte: no user
// file may change before every original is safely on disk. A run with
// nothing to back up (creates and archives only: an archive is its own
// backup) makes no directory at all.
func writeBackups(stateDir, runID string, entries []entry, origs [][]byte) error {
	var ks []int
	for k, e := range entries {
		if e.Op != Create && e.Op != Archive {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return nil
	}
	dir := backupDir(stateDir, runID)
	if err := state.MkdirPrivate(dir); err != nil {
		return fmt.Errorf("backup directory: %w", err)
	}
	index, err := writePack(filepath.Join(dir, packName), entries, origs, ks)
	if err != nil {
		return err
	}
	rel := txnDir + "/" + runID + "/" + packName
	for i, k := range ks {
		e := &entries[k]
		e.Backup, e.BackupOffset, e.BackupSize = rel, index[i].Offset, index[i].Size
	}
	if err := readBackPack(stateDir, entries, origs, ks); err != nil {
		return err
	}
	// The index says whose originals these are even without the journal
	// (deleted, or never written because the prepare was killed): the
	// backups are then reported as orphans, file by file. It is never
	// empty, and never null.
	b, err := json.Marshal(index)
	if err != nil {
		return err
	}
	if err := fsx.WriteNew(filepath.Join(dir, indexName), b); err != nil {
		return fmt.Errorf("backup index: %w", err)
	}
	if err := fsx.SyncDir(dir); err != nil {
		return err
	}
	return fsx.SyncDir(filepath.Dir(dir))
}

// writePack writes the originals of the entries ks into a new private file
// at p, fsynced, and returns where each one is.
func writePack(p string, entries []entry, origs [][]byte, ks []int) ([]backupIndexItem, error) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("backup pack: %w", err)
	}
	index := make([]backupIndexItem, 0, len(ks))
	var off int64
	for _, k := range ks {
		e := &entries[k]
		if _, err := f.Write(origs[k]); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("backup of %s: %w", e.Path, err)
		}
		index = append(index, backupIndexItem{Backup: packName, Offset: off, Size: int64(len(origs[k])), Path: e.Path, Original: e.Original})
		off += int64(len(origs[k]))
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("backup pack: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("backup pack: %w", err)
	}
	return index, nil
}

// readBackPack reads every backup of the entries ks back through one open
// of the pack and compares it with the original.
func readBackPack(stateDir string, entries []entry, origs [][]byte, ks []int) error {
	f, err := openBackup(stateDir, entries[ks[0]].Backup)
	if err != nil {
		return fmt.Errorf("backup pack: read back: %w", err)
	}
	defer f.Close()
	for _, k := range ks {
		e := &entries[k]
		back, err := sliceOf(f, e)
		if err != nil {
			return fmt.Errorf("backup of %s: read back: %w", e.Path, err)
		}
		if !bytes.Equal(back, origs[k]) {
			return fmt.Errorf("backup of %s: read back differs", e.Path)
		}
	}
	return nil
}

// readBackup reads the backup of an entry (a slice of its run's pack, or a
// file of its own in a version 1 journal) and checks its hash. The run's
// backup directory and the file must be real (no symlink).
func readBackup(stateDir string, e *entry) ([]byte, error) {
	if !packed(e.Backup) {
		p := filepath.Join(stateDir, filepath.FromSlash(e.Backup))
		if fi, err := os.Lstat(filepath.Dir(p)); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("backup directory of %s is missing or not a directory", e.Backup)
		}
		b, id, err := fsx.ReadFile(p, 0)
		if err != nil {
			return nil, err
		}
		if id.Hash != e.Original {
			return nil, fmt.Errorf("backup %s is damaged (hash %s, want %s)", e.Backup, id.Hash.Short(), e.Original.Short())
		}
		return b, nil
	}
	f, err := openBackup(stateDir, e.Backup)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return sliceOf(f, e)
}

// openBackup opens a run's pack, which must be a regular file (not a
// symlink) in a real directory.
func openBackup(stateDir, rel string) (*os.File, error) {
	p := filepath.Join(stateDir, filepath.FromSlash(rel))
	if fi, err := os.Lstat(filepath.Dir(p)); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("backup directory of %s is missing or not a directory", rel)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("backup %s is not a regular file", rel)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if now, err := f.Stat(); err != nil || !os.SameFile(fi, now) {
		f.Close()
		return nil, fmt.Errorf("backup %s changed while being opened", rel)
	}
	return f, nil
}

// sliceOf reads an entry's backup out of its open pack and checks its hash.
func sliceOf(f *os.File, e *entry) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if e.BackupOffset < 0 || e.BackupSize < 0 || e.BackupOffset > fi.Size()-e.BackupSize {
		return nil, fmt.Errorf("backup %s is damaged (it ends at %d bytes; the original's %d bytes were at %d)", e.Backup, fi.Size(), e.BackupSize, e.BackupOffset)
	}
	b := make([]byte, e.BackupSize)
	if _, err := f.ReadAt(b, e.BackupOffset); err != nil && !(errors.Is(err, io.EOF) && e.BackupSize == 0) {
		return nil, err
	}
	if got := fsx.SHA256(b); got != e.Original {
		return nil, fmt.Errorf("backup %s is damaged (hash %s, want %s)", e.Backup, got.Short(), e.Original.Short())
	}
	return b, nil
}
