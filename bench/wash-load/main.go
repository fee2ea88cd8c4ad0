package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("wash-load", flag.ContinueOnError)
	fl.SetOutput(stderr)
	cuts := fl.Bool("cuts", false, "print every planned cut and never-loaded finding")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if fl.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: wash-load [-cuts] DIR...")
		return 2
	}
	var total row
	fmt.Fprintf(stdout, "| project | platform | loaded tok | never loaded tok | quick saves tok |\n|---|---|---:|---:|---:|\n")
	for _, dir := range fl.Args() {
		rows, detail, err := measure(dir)
		if err != nil {
			fmt.Fprintf(stderr, "wash-load: %s: %v\n", dir, err)
			return 1
		}
		for _, r := range rows {
			fmt.Fprintf(stdout, "| %s | %s | %d | %d | %d |\n", filepath.Base(dir), r.platform, r.loaded, r.never, r.saved)
			total.loaded += r.loaded
			total.never += r.never
			total.saved += r.saved
		}
		if len(rows) == 0 {
			fmt.Fprintf(stdout, "| %s | (no memory) | 0 | 0 | 0 |\n", filepath.Base(dir))
		}
		if *cuts {
			for _, d := range detail {
				fmt.Fprintf(stderr, "%s: %s\n", filepath.Base(dir), d)
			}
		}
		total.best += bestSaving(rows)
	}
	fmt.Fprintf(stdout, "| all | (summed over platforms) | %d | %d | %d |\n", total.loaded, total.never, total.saved)
	fmt.Fprintf(stdout, "\nquick saves %d tok in all, counting each project's largest platform saving once\n", total.best)
	return 0
}

type row struct {
	platform             string
	loaded, never, saved int
	best                 int
}

func bestSaving(rows []row) int {
	n := 0
	for _, r := range rows {
		n = max(n, r.saved)
	}
	return n
}

// measure gauges one project and plans a quick pass over it, in a private copy.
func measure(dir string) ([]row, []string, error) {
	base, err := os.MkdirTemp("", "wash-load-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(base)
	base, _ = filepath.EvalSymlinks(base)
	root, home, state := filepath.Join(base, "proj"), filepath.Join(base, "home"), filepath.Join(base, "state")
	if err := copyTree(dir, root); err != nil {
		return nil, nil, err
	}
	for _, d := range []string{home, state, filepath.Join(root, ".git")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, err
		}
	}
	env := map[string]string{"HOME": home, "PROSEWASH_STATE_DIR": state, "XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	getenv := func(k string) string { return env[k] }
	p, err := project.Find(project.Options{Root: root, Dir: root, Getenv: getenv, Home: home})
	if err != nil {
		return nil, nil, err
	}
	l := lane.New(p, lane.Options{Home: home, Getenv: getenv, Now: time.Now})
	g, err := l.Gauge(lane.GaugeOptions{})
	if err != nil {
		return nil, nil, err
	}
	q, qerr := l.Quick(lane.QuickOptions{DryRun: true})
	saved := map[string]int{}
	for _, d := range q.Platforms {
		saved[d.Platform] = d.Before - d.After
	}
	var rows []row
	for _, pl := range g.Measure.Platforms {
		rows = append(rows, row{platform: pl.Platform, loaded: pl.Footprint, never: pl.NeverLoaded, saved: saved[pl.Platform]})
	}
	sort.Slice(rows, func(i, j int) bool { return rank(rows[i].platform) < rank(rows[j].platform) })
	var detail []string
	if qerr != nil {
		detail = append(detail, "quick refused: "+qerr.Error())
	}
	for _, f := range q.Files {
		for _, c := range f.Cuts {
			detail = append(detail, fmt.Sprintf("cut %s:%d %s (%d line(s), ~%d tok): %s", f.Path, c.Line, c.Kind, c.Lines, c.Tokens, c.Reason))
		}
	}
	for _, u := range g.NeverLoaded {
		detail = append(detail, fmt.Sprintf("never loaded %s:%d (%d line(s), %s, ~%d tok): %s", l.Rel(u.Path), u.Line, u.Lines, u.Platform, u.Tokens, u.Reason))
	}
	for _, fl := range q.Flags {
		if fl.Kind == "cross-file-duplicate" {
			detail = append(detail, fmt.Sprintf("kept copy %s:%d: %s", fl.Path, fl.Line, fl.Reason))
		}
	}
	return rows, detail, nil
}

func rank(p string) int {
	for i, q := range discover.AllPlatforms() {
		if p == q {
			return i
		}
	}
	return 99
}

// copyTree copies the regular files and directories of src into dst (symlinks as symlinks),
// skipping .git.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" && rel != "." {
			return filepath.SkipDir
		}
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, to)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, b, 0o644)
		}
		return nil
	})
}
