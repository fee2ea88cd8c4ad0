package txn

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// ArchiveLevel is the fixed gzip level of archives: the same input always gives the same
// archive, and a level-6 JSON transcript shrinks about ten-fold.
const ArchiveLevel = gzip.DefaultCompression

// prepareArchive checks an Archive operation before anything is written: the archive path
// resolves inside a root and is free, and the original is a plain local file (not a cloud
// placeholder) still of the size and modification time the caller listed.
func (t *Tx) prepareArchive(op Op, real string, e *entry, fr *FileResult) error {
	if op.To == "" || !filepath.IsAbs(op.To) {
		return fmt.Errorf("%s: archive destination %q is not an absolute path", op.Path, op.To)
	}
	if err := t.mkdirInRoot(filepath.Dir(filepath.Clean(op.To))); err != nil {
		return err
	}
	to, err := t.resolve(op.To)
	if err != nil {
		return err
	}
	if to == real {
		return fmt.Errorf("%s: archive onto itself", op.Path)
	}
	if _, err := os.Lstat(to); err == nil {
		h, _, _ := fsx.HashFile(to)
		return &fsx.ConflictError{Path: to, Actual: h}
	} else if !os.IsNotExist(err) {
		return err
	}
	id, err := fsx.Stat(real)
	if err != nil {
		if os.IsNotExist(err) {
			return &fsx.ConflictError{Path: op.Path, Expected: op.Expect}
		}
		return err
	}
	if id.Size != op.Size || (!op.ModTime.IsZero() && !id.ModTime.Equal(op.ModTime)) {
		return &fsx.ConflictError{Path: op.Path, Expected: op.Expect}
	}
	e.Archive, e.Mode, e.Size, e.MTime = to, uint32(id.Mode.Perm()), id.Size, id.ModTime.UnixNano()
	e.Dev, e.Ino, e.HasID = id.Dev, id.Ino, id.HasID
	fr.Current = op.Expect
	return nil
}

// mkdirInRoot creates dir (0700) when its nearest existing ancestor resolves inside a root:
// an archive's directories are made where the archive may go, never through a symlink out.
func (t *Tx) mkdirInRoot(dir string) error {
	anc := dir
	for {
		if _, err := os.Lstat(anc); err == nil {
			break
		}
		parent := filepath.Dir(anc)
		if parent == anc {
			return fmt.Errorf("%s: %w", dir, ErrOutsideRoot)
		}
		anc = parent
	}
	real, err := filepath.EvalSymlinks(anc)
	if err != nil {
		return err
	}
	roots := append([]string{t.root}, t.roots...)
	inside := false
	for _, r := range roots {
		inside = inside || real == r || fsx.Inside(r, real)
	}
	if !inside {
		return fmt.Errorf("%s: %w", dir, ErrOutsideRoot)
	}
	if anc == dir {
		return nil
	}
	return os.MkdirAll(dir, 0o700)
}

// writeArchives writes and verifies the archive of every Archive entry, then journals their
// hashes in one save: the archives are the run's backups, in place before any original goes.
// A crash before that save leaves archives the journal does not name by hash yet; recovery
// recognises them by decompressing them to the original's hash, and no original is deleted
// before the save (Install journals every intent first).
func (t *Tx) writeArchives() error {
	fired, any := false, false
	dirs := map[string]bool{}
	for k := range t.j.Entries {
		e := &t.j.Entries[k]
		if e.Op != Archive {
			continue
		}
		fr := &t.files[t.idx[k]]
		h, err := writeArchive(e, func() {
			if !fired {
				failpoint(t.opts.Getenv, FailArchivingOne)
			}
		})
		if err != nil {
			setFailed(fr, err)
			if t.opts.AllOrNothing {
				return &AbortedError{Path: fr.Path, Err: err}
			}
			e.Skip = true
			continue
		}
		e.ArchiveHash = h
		dirs[filepath.Dir(e.Archive)] = true
		any = true
		if !fired {
			fired = true
			failpoint(t.opts.Getenv, FailArchivedOne)
		}
	}
	if any {
		// The moves are durable before the journal names the archives, and long before any
		// original is deleted.
		if err := syncDirs(dirs); err != nil {
			return fmt.Errorf("prepare: %w", err)
		}
		if err := t.j.save(t.stateDir); err != nil {
			return fmt.Errorf("prepare: %w", err)
		}
	}
	return nil
}

// syncDirs fsyncs each directory once.
func syncDirs(dirs map[string]bool) error {
	for d := range dirs {
		if err := fsx.SyncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// writeArchive compresses the original into a temporary file beside the archive (hashing the
// original as it is read: it must still be what was listed), fsyncs it, moves it into place
// without replacing anything, fsyncs the directory, then reads the archive back as a stream:
// its bytes must hash as written and decompress to the original's hash. It returns the
// archive's hash. beforeMove runs between the fsync and the move (a failpoint).
func writeArchive(e *entry, beforeMove func()) (fsx.Hash, error) {
	src, err := os.Open(e.Path)
	if err != nil {
		if os.IsNotExist(err) {
			return fsx.Hash{}, &fsx.ConflictError{Path: e.Path, Expected: e.Original}
		}
		return fsx.Hash{}, err
	}
	defer src.Close()
	pr, pw := io.Pipe()
	srcHash := make(chan fsx.Hash, 1)
	go func() {
		zw, err := gzip.NewWriterLevel(pw, ArchiveLevel)
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		zw.Name = filepath.Base(e.Path)
		zw.ModTime = time.Unix(0, e.MTime)
		h, err := fsx.HashReader(io.TeeReader(bufio.NewReaderSize(src, 256<<10), zw))
		if err == nil {
			err = zw.Close()
		}
		srcHash <- h
		pw.CloseWithError(err)
	}()
	tmp, gzHash, err := fsx.WriteStream(e.Archive, pr)
	_ = pr.CloseWithError(errors.New("archive write stopped"))
	got := <-srcHash
	if err != nil {
		return fsx.Hash{}, fmt.Errorf("archive %s: %w", e.Path, err)
	}
	if got != e.Original {
		_ = os.Remove(tmp)
		return fsx.Hash{}, &fsx.ConflictError{Path: e.Path, Expected: e.Original, Actual: got}
	}
	beforeMove()
	if err := fsx.MoveNew(tmp, e.Archive); err != nil {
		_ = os.Remove(tmp)
		return fsx.Hash{}, fmt.Errorf("archive %s: %w", e.Path, err)
	}
	if err := verifyArchive(e.Archive, gzHash, e.Original); err != nil {
		return fsx.Hash{}, err
	}
	return gzHash, nil
}

// verifyArchive reads an archive back as a stream: its bytes must hash to gz (when known) and
// decompress to want.
func verifyArchive(path string, gz, want fsx.Hash) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	defer f.Close()
	raw := sha256Writer()
	zr, err := gzip.NewReader(io.TeeReader(bufio.NewReaderSize(f, 256<<10), raw))
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	zr.Multistream(false)
	got, err := fsx.HashReader(zr)
	if err != nil {
		return fmt.Errorf("verify %s: %w", path, err)
	}
	if _, err := io.Copy(raw, f); err != nil { // trailing bytes count in the archive's hash
		return fmt.Errorf("verify %s: %w", path, err)
	}
	if got != want {
		return fmt.Errorf("verify %s: decompresses to %s, want %s", path, got.Short(), want.Short())
	}
	if !gz.IsZero() && raw.sum() != gz {
		return fmt.Errorf("verify %s: archive hashes to %s, want %s", path, raw.sum().Short(), gz.Short())
	}
	return nil
}

// removeArchive undoes an archive while its original is in place: temporary files of the
// archive are removed, and the archive itself when it is the one the run verified (or, when
// the run was killed before journalling it, when it decompresses to the original).
func removeArchive(e *entry) error {
	if l, err := fsx.Leftovers(e.Archive); err == nil {
		for _, p := range l {
			_ = os.Remove(p)
		}
	}
	cur, present, err := fsx.HashFile(e.Archive)
	if err != nil || !present {
		return err
	}
	if e.ArchiveHash.IsZero() {
		if verifyArchive(e.Archive, fsx.Hash{}, e.Original) != nil {
			return fmt.Errorf("%s is not this run's archive of %s; left in place", e.Archive, e.Path)
		}
	} else if cur != e.ArchiveHash {
		return fmt.Errorf("%s changed since the run wrote it; left in place", e.Archive)
	}
	return fsx.Remove(e.Archive, cur)
}

// restoreArchived puts a deleted original back from its archive, verified by hash, with its
// mode and modification time, never over a file that appeared meanwhile, through the
// temporary name track journals first.
func restoreArchived(e *entry, track func(suffix string) (string, error)) error {
	if e.ArchiveHash.IsZero() {
		return keptf(KeptBackup, "deleted, and no verified archive of it was journalled (original %s)", e.Original.Short())
	}
	f, err := os.Open(e.Archive)
	if err != nil {
		return keptf(KeptBackup, "deleted, and its archive cannot be opened: %v", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(f, 256<<10))
	if err != nil {
		return keptf(KeptBackup, "deleted, and its archive cannot be read: %v", err)
	}
	zr.Multistream(false)
	tmp, err := track("tmp")
	if err != nil {
		return keptf(KeptFailed, "restore from %s: %v", e.Archive, err)
	}
	if err := fsx.CreateFrom(e.Path, zr, e.Original, os.FileMode(e.Mode), time.Unix(0, e.MTime), tmp); err != nil {
		if errors.Is(err, fsx.ErrConflict) {
			return keptf(KeptEdited, "restore from %s: %v", e.Archive, err)
		}
		return keptf(KeptFailed, "restore from %s: %v", e.Archive, err)
	}
	return nil
}

// restoreArchiveEntry is restoreOne for an Archive entry: an original the run never went for
// keeps whatever it holds and loses its archive; one still in place does too; a deleted one
// comes back from its archive, which then goes; a new file where the run deleted the original
// is kept as found, and so is the archive (it may hold the only copy).
func restoreArchiveEntry(e *entry, track func(suffix string) (string, error)) (bool, error) {
	if !e.Intent && !e.Done {
		// The run never went for the original: whatever it holds now, undoing the run is
		// removing the copy it made.
		if err := removeArchive(e); err != nil {
			return false, keptf(KeptFailed, "%v", err)
		}
		return false, nil
	}
	cur, present, err := fsx.HashFile(e.Path)
	if err != nil {
		return false, keptf(KeptFailed, "cannot inspect the file now: %v", err)
	}
	switch {
	case present && cur == e.Original:
		if err := removeArchive(e); err != nil {
			return false, keptf(KeptFailed, "%v", err)
		}
		return false, nil
	case !present:
		if err := restoreArchived(e, track); err != nil {
			return false, err
		}
		if err := removeArchive(e); err != nil {
			return true, keptf(KeptFailed, "%v", err)
		}
		return true, nil
	}
	return false, keptf(KeptEdited, "a new file appeared where the run archived one (original %s, now %s); the archive is kept at %s",
		e.Original.Short(), cur.Short(), e.Archive)
}

// removeArchived is the Install step of an Archive entry: the archive must still be the one
// verified, then the original is deleted by compare-and-swap on its size, modification time,
// inode and hash, checked immediately before the unlink. Its directory is fsynced by
// installBatch, once per directory, before the run is journalled installed.
func removeArchived(e *entry, sw fsx.Swap) error {
	h, ok, err := fsx.HashFile(e.Archive)
	if err != nil {
		return err
	}
	if !ok || h != e.ArchiveHash {
		return &fsx.ConflictError{Path: e.Archive, Expected: e.ArchiveHash, Actual: h}
	}
	return fsx.RemoveIdentical(e.Path, fsx.Identity{Size: e.Size, ModTime: time.Unix(0, e.MTime), Dev: e.Dev, Ino: e.Ino, HasID: e.HasID, Hash: e.Original}, sw)
}

// hashWriter is a streaming SHA-256 yielding an fsx.Hash.
type hashWriter struct{ h hash.Hash }

func sha256Writer() *hashWriter { return &hashWriter{h: sha256.New()} }

func (w *hashWriter) Write(p []byte) (int, error) { return w.h.Write(p) }

func (w *hashWriter) sum() fsx.Hash {
	var out fsx.Hash
	w.h.Sum(out[:0])
	return out
}
