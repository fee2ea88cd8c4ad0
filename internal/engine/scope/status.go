package scope

import (
	"errors"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bmatcuk/doublestar/v4"
)

// Status says whether a recorded file may be cleaned.
type Status string

const (
	Eligible    Status = "eligible"
	Changed     Status = "changed since recorded" // someone else edited it: skipped
	Missing     Status = "no longer exists"       // deleted or renamed
	Excluded    Status = "excluded by [clean] exclude"
	NotIncluded Status = "not matched by [clean] include"
	Checkout    Status = "replaced by checkout"     // git checkout rewrote it
	Outside     Status = "outside the project root" // the root moved; never cleaned
)

// Item is a recorded file with its status.
type Item struct {
	Entry
	Rel    string
	Status Status
}

// Filter holds the [clean] include and exclude patterns: doublestar
// patterns over the slash-separated path relative to the project root.
type Filter struct {
	Include []string
	Exclude []string
}

// Check validates the patterns so a typo is an error, not a silent no-op.
func (f Filter) Check() error {
	for _, p := range append(append([]string{}, f.Include...), f.Exclude...) {
		if !doublestar.ValidatePattern(p) {
			return fmt.Errorf("invalid pattern %q", p)
		}
	}
	return nil
}

// Match returns the status a filter gives a relative path: Eligible,
// Excluded or NotIncluded.
func (f Filter) Match(rel string) Status {
	rel = filepath.ToSlash(rel)
	for _, p := range f.Exclude {
		if ok, _ := doublestar.Match(p, rel); ok {
			return Excluded
		}
	}
	if len(f.Include) == 0 {
		return Eligible
	}
	for _, p := range f.Include {
		if ok, _ := doublestar.Match(p, rel); ok {
			return Eligible
		}
	}
	return NotIncluded
}

// Evaluate gives every entry its status by hashing the file now.
func Evaluate(entries []Entry, root string, filter Filter) []Item {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	items := make([]Item, 0, len(entries))
	for _, e := range entries {
		it := Item{Entry: e}
		rel, err := filepath.Rel(realRoot, e.Path)
		if err != nil || !fsx.Below(realRoot, e.Path) {
			it.Rel, it.Status = e.Path, Outside
			items = append(items, it)
			continue
		}
		it.Rel = filepath.ToSlash(rel)
		switch {
		case e.Op == OpCheckout:
			it.Status = Checkout
		default:
			it.Status = filter.Match(it.Rel)
		}
		if it.Status == Eligible {
			h, err := HashFile(e.Path)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				it.Status = Missing
			case err != nil:
				it.Status = Status("unreadable: " + fsx.Cause(err).Error())
			case h != e.Hash:
				it.Status = Changed
			}
		} else if _, err := os.Lstat(e.Path); errors.Is(err, fs.ErrNotExist) && it.Status != Checkout {
			it.Status = Missing
		}
		items = append(items, it)
	}
	return items
}
