package session

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/scope"
)

// Written is one path a tool wrote: the absolute path and the spelling the
// payload used (to refuse a '..' escape by name).
type Written struct {
	Path string
	Raw  string
}

// Record appends the written files inside the project to the session's
// record (path and SHA-256, never content) and lets the memory lane's
// write guard look at each. Files outside the project are not recorded;
// one that escapes through '..' is an error. It returns the guard's FYI
// lines for the model. Every path is tried; the first error is returned
// after the others were recorded.
func (s *Session) Record(paths []Written) (fyi []string, err error) {
	p := s.Project
	var inside []string
	var firstErr error
	keep := func(e error) {
		if firstErr == nil {
			firstErr = e
		}
	}
	l := s.Lane()
	for _, w := range paths {
		abs, cerr := scope.Contain(p.Root, w.Path)
		var outside *scope.OutsideError
		if errors.As(cerr, &outside) {
			if hasDotDot(w.Raw) {
				keep(fmt.Errorf("%s escapes the project %s through '..'; not recorded", w.Raw, p.Root))
				continue
			}
			// An agent writes outside the project too (plans, scratch
			// files, its own memory): not ours to record, but the memory
			// lane's write guard still looks.
			if m := l.Compare(s.ID, w.Path); m != "" {
				fyi = append(fyi, m)
			}
			continue
		}
		if cerr != nil {
			keep(cerr)
			continue
		}
		inside = append(inside, abs)
	}
	if len(inside) > 0 {
		stateDir, err := p.StateDir()
		if err != nil {
			return fyi, err
		}
		rec, err := scope.Open(stateDir, s.ID)
		if err != nil {
			return fyi, err
		}
		if _, errs := rec.AddContained(inside, s.env.now()); len(errs) > 0 { // each is Contain's answer above
			keep(errs[0])
		}
		for _, abs := range inside {
			if m := l.Compare(s.ID, abs); m != "" {
				fyi = append(fyi, m)
			}
		}
	}
	return fyi, firstErr
}

// BeforeWrite is the memory lane's write guard before a tool writes path.
func (s *Session) BeforeWrite(path string) error { return s.Lane().Snapshot(s.ID, path) }

// BeforeWrites runs the write guard for every file a tool is about to
// write or delete; one file's failure does not keep the others unguarded.
func (s *Session) BeforeWrites(ws []Written) error {
	var errs []error
	for _, w := range ws {
		if err := s.BeforeWrite(w.Path); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// hasDotDot reports whether a path has a ".." element.
func hasDotDot(p string) bool {
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if e == ".." {
			return true
		}
	}
	return false
}
