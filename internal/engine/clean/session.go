package clean

import (
	"fmt"
	"io"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/scope"
)

// Selection is what a session's run takes, and every recorded file it
// leaves, with why.
type Selection struct {
	Targets []Target
	Skipped []report.Skip
}

// SessionTargets decides which of a session's recorded files a run takes.
// It is the one rule every adapter (the command line, the agent hooks, the
// git hooks) applies: a file is taken when it is eligible (inside the
// project, included, and unchanged since it was recorded) and a classifier
// knows its type. Every other file is skipped with its reason, files
// without a classifier too, so no adapter refuses what another leaves out
// silently.
func SessionTargets(p *project.Project, entries []scope.Entry) (Selection, error) {
	cfg, _, err := p.Config()
	if err != nil {
		return Selection{}, err
	}
	return selectTargets(p.Root, filterOf(cfg), entries), nil
}

// SessionTargets is the package's SessionTargets with the plan's own
// include and exclude patterns: the files the plan was made (and approved)
// to take.
func (plan *Plan) SessionTargets(entries []scope.Entry) Selection {
	return selectTargets(plan.Project.Root, plan.Filter, entries)
}

func selectTargets(root string, f scope.Filter, entries []scope.Entry) Selection {
	var s Selection
	for _, it := range scope.Evaluate(entries, root, f) {
		if it.Status != scope.Eligible {
			s.Skipped = append(s.Skipped, report.Skip{Path: it.Rel, Reason: string(it.Status)})
			continue
		}
		if why := Unclassified(it.Path); why != "" {
			s.Skipped = append(s.Skipped, report.Skip{Path: it.Rel, Reason: why})
			continue
		}
		s.Targets = append(s.Targets, Target{Path: it.Path, Rel: it.Rel, Expect: it.Hash})
	}
	return s
}

// Unclassified says why no classifier takes path, or "" when one does.
// The name decides for most files; a file whose name says nothing is
// recognised by its first line (a script's shebang).
func Unclassified(path string) string {
	if region.Language(path, nil) != "" {
		return ""
	}
	if region.Language(path, head(path)) != "" {
		return ""
	}
	ext := extOf(path)
	if ext == "" {
		return "no classifier for files without an extension; left alone, not treated as prose"
	}
	return fmt.Sprintf("no classifier for %s files; left alone, not treated as prose", ext)
}

// head returns the first bytes of a regular file, or nil.
func head(path string) []byte {
	f, _, err := fsx.OpenRegular(path, true)
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	b := make([]byte, 512)
	n, _ := io.ReadFull(f, b)
	return b[:n]
}
