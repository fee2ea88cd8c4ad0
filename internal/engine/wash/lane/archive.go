package lane

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
)

// EvStart records the transcript a session writes (SessionStart's transcript_path): the exact
// transcript directory of the project, whatever Claude Code named it.
const EvStart = "start"

// RecordTranscript appends the session's transcript path to its record (SessionStart).
func (l *Lane) RecordTranscript(session, transcript string) error {
	if transcript == "" || !filepath.IsAbs(transcript) {
		return nil
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return err
	}
	return appendEvent(stateDir, SessionEvent{Ev: EvStart, At: l.now().UTC(), Session: session, Path: filepath.Clean(transcript)})
}

// claudeConfigDir is Claude Code's config directory ($CLAUDE_CONFIG_DIR or ~/.claude).
func (l *Lane) claudeConfigDir() string { return discover.ConfigDirs(l.discoverOptions(nil))[0] }

// TranscriptDir finds the project's Claude Code transcript directory: the directory of the
// newest transcript a session of this project reported (exact, whatever the slug rule did
// with a long path), else <config>/projects/<slug>. It must resolve inside the config
// directory's projects/; "" when there is none.
func (l *Lane) TranscriptDir() string {
	projects, err := filepath.EvalSymlinks(filepath.Join(l.claudeConfigDir(), "projects"))
	if err != nil {
		return ""
	}
	inside := func(d string) string {
		real, err := filepath.EvalSymlinks(d)
		if err != nil || filepath.Dir(real) != projects {
			return ""
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return ""
		}
		return real
	}
	if stateDir, err := l.stateDir(); err == nil {
		for _, r := range listRecords(stateDir) {
			evs, _ := readEvents(r.path)
			for i := len(evs) - 1; i >= 0; i-- {
				if evs[i].Ev == EvStart {
					if d := inside(filepath.Dir(evs[i].Path)); d != "" {
						return d
					}
				}
			}
		}
	}
	return inside(filepath.Dir(discover.MemoryDir(l.discoverOptions(nil))))
}

// ArchiveRoot is where transcripts are archived: [wash] archive_dir, else
// $XDG_DATA_HOME/prosewash/transcripts, else ~/.local/share/prosewash/transcripts
// (%LOCALAPPDATA%\prosewash\transcripts on Windows).
func (l *Lane) ArchiveRoot() (string, error) {
	w, err := l.config()
	if err != nil {
		return "", err
	}
	if w.ArchiveDir != "" {
		return filepath.Clean(w.ArchiveDir), nil
	}
	if runtime.GOOS == "windows" {
		if v := l.getenv("LOCALAPPDATA"); filepath.IsAbs(v) {
			return filepath.Join(v, "prosewash", "transcripts"), nil
		}
	}
	if v := l.getenv("XDG_DATA_HOME"); filepath.IsAbs(v) {
		return filepath.Join(v, "prosewash", "transcripts"), nil
	}
	if l.home == "" {
		return "", errors.New("archive: no home directory and no [wash] archive_dir")
	}
	return filepath.Join(l.home, ".local", "share", "prosewash", "transcripts"), nil
}

// ArchiveOptions returns the archive's view of this project; the store is "" when Claude
// Code has no transcripts for it.
func (l *Lane) ArchiveOptions(version string) (archive.Options, error) {
	w, err := l.config()
	if err != nil {
		return archive.Options{}, err
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return archive.Options{}, err
	}
	root, err := l.ArchiveRoot()
	if err != nil {
		return archive.Options{}, err
	}
	store := l.TranscriptDir()
	o := archive.Options{ConfigDir: l.claudeConfigDir(), Store: store, Root: l.p.Root, StateDir: stateDir, Now: l.now,
		Getenv: l.getenv, Version: version, After: time.Duration(max(1, w.ArchiveAfterDays)) * 24 * time.Hour}
	if store != "" {
		o.Archive = filepath.Join(root, filepath.Base(store))
	}
	if s := l.getenv("PROSEWASH_SESSION"); s != "" {
		o.Current = append(o.Current, s)
	}
	return o, nil
}

// NoStoreError says Claude Code has no transcripts for this project.
type NoStoreError struct{ Looked string }

func (e *NoStoreError) Error() string {
	return fmt.Sprintf("no Claude Code transcripts for this project (looked in %s)", e.Looked)
}

// Archive archives the project's old session transcripts (see internal/engine/wash/archive). The
// archive directory must lie outside the project and the transcript store. It is never
// called from a hook: the command line asks a person first.
func (l *Lane) Archive(o archive.Options, dryRun bool, only []string) (archive.Report, error) {
	if o.Store == "" {
		return archive.Report{}, &NoStoreError{Looked: filepath.Join(l.claudeConfigDir(), "projects")}
	}
	if err := l.refusePending(); err != nil {
		return archive.Report{}, err
	}
	if within(o.Archive, l.p.Root) || within(o.Archive, o.Store) {
		return archive.Report{}, fmt.Errorf("archive: %s lies inside the project or the transcript store; choose another [wash] archive_dir", o.Archive)
	}
	if !dryRun {
		if err := os.MkdirAll(o.Archive, 0o700); err != nil {
			return archive.Report{}, fmt.Errorf("archive: %w", err)
		}
		real, err := filepath.EvalSymlinks(o.Archive)
		if err != nil {
			return archive.Report{}, fmt.Errorf("archive: %w", err)
		}
		o.Archive = real
	}
	return archive.Run(o, dryRun, only)
}

// RecoverRoots are the roots a recovery trusts: the platforms' config directories (the
// memory directory lies in the first), this project's transcript directory and its archive
// directory.
func (l *Lane) RecoverRoots() []string {
	roots := l.TrustedRoots()
	store := l.TranscriptDir()
	if store == "" {
		return roots
	}
	roots = append(roots, store)
	if root, err := l.ArchiveRoot(); err == nil {
		if real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.Base(store))); err == nil {
			roots = append(roots, real)
		}
	}
	return roots
}
