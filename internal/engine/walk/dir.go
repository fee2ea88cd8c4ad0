package walk

import (
	"os"
	"slices"
	"strings"
)

// entType is a directory entry's type as the directory listing reports it,
// so that most entries need no stat call.
type entType uint8

const (
	typeUnknown entType = iota // the filesystem did not say; lstat decides
	typeFile
	typeDir
	typeSymlink
	typeOther
)

// rawEnt locates one name in workerState.names.
type rawEnt struct {
	off, end int
	typ      entType
}

// ent is a directory entry during the sort and the ignore checks.
type ent struct {
	name string
	typ  entType
}

// workerState is the scratch space one worker reuses for every node, so that
// steady-state walking allocates per directory, not per file.
type workerState struct {
	buf   []byte   // file contents
	dbuf  []byte   // raw directory records
	names []byte   // entry names of the directory being listed
	raw   []rawEnt // entries located in names
	ents  []ent
	paths []byte // children's paths, before they become one string
	cpath []byte // a NUL-terminated path for a system call
	// nulText is Options.NULText: NUL bytes alone do not make a file binary.
	nulText bool
}

// readDir lists the directory n, applies the ignore rules and fills
// n.children in sorted order.
func (w *walker) readDir(n *node, ws *workerState) {
	ws.names, ws.raw = ws.names[:0], ws.raw[:0]
	if err := w.listDir(n.path, ws); err != nil {
		n.setSkip(SkipError, err)
		return
	}
	if len(ws.raw) == 0 {
		return
	}
	prefix := childPrefix(n.path)
	ents := ws.sortedEntries(prefix)
	sc := ignoreScope{top: n.top, rel: n.rel, inRepo: n.inRepo}
	if !w.opt.NoIgnore {
		sc = w.enterDir(n.path, prefix, ents, sc)
	}
	kept, size := w.keptEntries(ents, prefix, sc)
	if len(kept) == 0 {
		return
	}
	n.children = ws.children(kept, size, prefix, sc)
}

// ignoreScope is where a directory's entries stand in the ignore rules:
// the innermost level of rules, the directory's slash path from its
// repository's root, and whether it is in a repository at all.
type ignoreScope struct {
	top    *level
	rel    string
	inRepo bool
}

// sortedEntries is the listed directory's entries sorted by name, each
// with its type (an lstat where the listing left it out).
func (ws *workerState) sortedEntries(prefix string) []ent {
	names := string(ws.names)
	ents := ws.ents[:0]
	for _, r := range ws.raw {
		ents = append(ents, ent{name: names[r.off:r.end], typ: r.typ})
	}
	slices.SortFunc(ents, func(a, b ent) int { return strings.Compare(a.name, b.name) })
	ws.ents = ents
	for i := range ents {
		if ents[i].typ == typeUnknown {
			// Only some filesystems leave the type out of the listing.
			typ, err := lstatType(prefix + ents[i].name)
			if err != nil {
				typ = typeOther
			}
			ents[i].typ = typ
		}
	}
	return ents
}

// enterDir is the ignore scope of the entries of the directory at path: a
// nested repository starts its own, and a .gitignore in a repository adds
// a level of rules.
func (w *walker) enterDir(path, prefix string, ents []ent, sc ignoreScope) ignoreScope {
	hasGit, hasIgnore := false, false
	for _, e := range ents {
		switch e.name {
		case ".git":
			hasGit = isRepoMarker(prefix+".git", e.typ)
		case ".gitignore":
			hasIgnore = e.typ == typeFile
		}
	}
	if hasGit && (!sc.inRepo || sc.rel != "") {
		// A nested repository (submodule or independent clone) has its
		// own rules; its superproject's no longer apply.
		sc = ignoreScope{top: w.loader.repoBase(path), rel: "", inRepo: true}
	}
	if sc.inRepo && hasIgnore {
		if rules := readRules(prefix+".gitignore", false); len(rules) > 0 {
			sc.top = &level{parent: sc.top, base: sc.rel, rules: rules}
		}
	}
	return sc
}

// keptEntries drops .git and every entry the ignore rules or the Exclude
// option leave out; size is the length of the kept entries' paths.
func (w *walker) keptEntries(ents []ent, prefix string, sc ignoreScope) (kept []ent, size int) {
	kept = ents[:0]
	for _, e := range ents {
		if e.name == ".git" {
			continue
		}
		if sc.top != nil && ignored(sc.top, sc.rel, e.name, e.typ == typeDir) {
			continue
		}
		if w.opt.Exclude != nil && w.opt.Exclude(prefix+e.name, e.typ == typeDir) {
			continue
		}
		kept = append(kept, e)
		size += len(prefix) + len(e.name)
	}
	return kept, size
}

// children makes the nodes of the kept entries, all their paths in one
// string: files, directories carrying the ignore scope down, and the
// skipped (symlinks, anything not regular).
func (ws *workerState) children(kept []ent, size int, prefix string, sc ignoreScope) []node {
	paths := slices.Grow(ws.paths[:0], size)
	for _, e := range kept {
		paths = append(paths, prefix...)
		paths = append(paths, e.name...)
	}
	ws.paths = paths
	all := string(paths)
	children := make([]node, len(kept))
	off := 0
	for i, e := range kept {
		c := &children[i]
		end := off + len(prefix) + len(e.name)
		c.path = all[off:end]
		off = end
		switch e.typ {
		case typeFile:
			c.kind = nodeFile
		case typeDir:
			c.kind = nodeDir
			c.top, c.inRepo = sc.top, sc.inRepo
			if sc.inRepo {
				c.rel = e.name
				if sc.rel != "" {
					c.rel = sc.rel + "/" + e.name
				}
			}
		case typeSymlink:
			c.setSkip(SkipSymlink, nil)
		default:
			c.setSkip(SkipNotRegular, nil)
		}
	}
	return children
}

// osTypeOf maps a file mode to an entry type.
func osTypeOf(m os.FileMode) entType {
	switch {
	case m.IsRegular():
		return typeFile
	case m.IsDir():
		return typeDir
	case m&os.ModeSymlink != 0:
		return typeSymlink
	}
	return typeOther
}

// lstatType reports the type of path without following a final symlink.
func lstatType(path string) (entType, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return typeUnknown, err
	}
	return osTypeOf(fi.Mode()), nil
}
