package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prosewash/prosewash/internal/engine/report"
)

// DefaultMaxSize is the size limit used when Options.MaxSize is zero.
const DefaultMaxSize = 64 << 20

// BinaryPrefix is how many leading bytes are searched for a NUL byte to call a
// file binary; it is git's own rule (buffer_is_binary).
const BinaryPrefix = 8000

// maxAhead bounds how many finished files and directories may wait for the
// emitter, so that a slow emit callback or one slow file cannot make the walk
// hold the whole tree in memory.
const maxAhead = 1 << 14

// wakeBatch is how many finished nodes make it worth waking the emitter.
const wakeBatch = 256

// Options configure [Walk].
type Options struct {
	// Workers is how many goroutines read directories and files and run the
	// process callback; <= 0 means runtime.GOMAXPROCS(0).
	Workers int
	// MaxSize is the largest file that is read; larger files are reported as
	// skipped without being read. 0 means DefaultMaxSize, < 0 means no limit.
	MaxSize int64
	// NoIgnore walks git-ignored paths too. .git directories are still skipped.
	NoIgnore bool
	// NULText hands over a file whose NUL bytes are all that makes it look
	// binary (the rest is valid UTF-8) instead of skipping it, so one NUL
	// byte cannot hide a text file from a scan.
	NULText bool
	// Exclude, when set, leaves out a path found under a directory (never a
	// path given to Walk itself) when it returns true, as an ignore rule
	// does: unlisted, and a directory is not entered. It is called from
	// several goroutines at once.
	Exclude func(path string, dir bool) bool

	// Knobs for tests: a small backlog bound to exercise back-pressure, and
	// the portable package-os readers instead of the platform ones.
	maxAhead int64
	portable bool
	getenv   func(string) string
}

// File is one regular file handed to the process callback.
type File struct {
	// Path is the file's path joined from the argument it was found under,
	// the way the user would write it ("." contributes no prefix).
	Path string
	// Data is the whole content. It is only valid during the callback: the
	// buffer is reused for the next file.
	Data []byte
}

// SkipReason says why a path was not handed to the process callback.
type SkipReason string

// The reasons a path is skipped.
const (
	SkipBinary     SkipReason = "binary"             // a NUL byte within the first BinaryPrefix bytes (and, with NULText, invalid UTF-8)
	SkipTooLarge   SkipReason = "too large"          // larger than Options.MaxSize; Skip.Size has the size
	SkipSymlink    SkipReason = "symlink"            // symbolic links are never followed
	SkipNotRegular SkipReason = "not a regular file" // device, FIFO, socket
	SkipError      SkipReason = "unreadable"         // missing or unreadable; Skip.Err says why
)

// Skip reports a path that was not processed.
type Skip struct {
	Path   string
	Reason SkipReason
	Size   int64 // the file size, for SkipTooLarge
	Err    error // the cause, for SkipError (an *fs.PathError naming the path)
}

// String renders the skip for a human without file contents, e.g.
// "a/b.bin: skipped: binary" or "a/c: skipped: open: permission denied".
// The path is quoted when it holds control characters, so a crafted
// name cannot forge a line of output.
func (s Skip) String() string {
	var pe *fs.PathError
	path := report.Quote(s.Path)
	switch {
	case errors.As(s.Err, &pe):
		return fmt.Sprintf("%s: skipped: %s: %v", path, pe.Op, pe.Err)
	case s.Err != nil:
		return fmt.Sprintf("%s: skipped: %v", path, s.Err)
	case s.Reason == SkipTooLarge:
		return fmt.Sprintf("%s: skipped: too large (%d bytes)", path, s.Size)
	}
	return fmt.Sprintf("%s: skipped: %s", path, s.Reason)
}

// Walk visits every regular file under paths. A path that names a file is
// always visited, even when git ignores it, and a directory named explicitly
// is always walked (both like ripgrep); a path that is a symlink is reported,
// never followed. Inside directories, entries named .git are skipped and,
// unless Options.NoIgnore, so is what git would ignore: per-directory
// .gitignore files (including those of the directories between the work
// tree root and a path given), .git/info/exclude and core.excludesFile
// (default $XDG_CONFIG_HOME/git/ignore), with git's precedence and
// wildmatch semantics. These apply inside git work trees only; a nested
// repository follows its own rules. Unlike git, a tracked file that matches
// an ignore rule is still skipped, as ripgrep does.
//
// process runs concurrently on up to Options.Workers goroutines for every
// file that is neither binary nor too large and returns an opaque result.
// emit and skipped run on the calling goroutine, one call at a time, in the
// walk's deterministic order (arguments in the order given, each directory's
// entries sorted by name, depth first), so output built from them is stable.
//
// Per-path problems (missing, unreadable, symlink, binary, too large) go to
// skipped, which may be nil, and the walk goes on. Walk returns the first
// error emit returns, or ctx.Err() once ctx is cancelled, and nil after
// delivering everything. No callback is running once Walk has returned. A
// panic in process becomes that file's error, passed to emit, rather than
// crashing the program.
func Walk(ctx context.Context, paths []string, opt Options,
	process func(f File) (any, error),
	emit func(path string, result any, err error) error,
	skipped func(Skip)) error {
	return new(walker).run(ctx, paths, opt, process, emit, skipped)
}

func (w *walker) run(ctx context.Context, paths []string, opt Options,
	process func(f File) (any, error),
	emit func(path string, result any, err error) error,
	skipped func(Skip)) error {
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case opt.MaxSize == 0:
		opt.MaxSize = DefaultMaxSize
	case opt.MaxSize < 0:
		opt.MaxSize = -1
	}
	w.ctx, w.opt = ctx, opt
	w.process, w.emit, w.skipped = process, emit, skipped
	w.wake = make(chan struct{}, 1)
	w.done = ctx.Done()
	w.loader = newLoader()
	if opt.getenv != nil {
		w.loader.env = opt.getenv
	}
	w.cond.L = &w.mu
	w.maxAhead = opt.maxAhead
	if w.maxAhead <= 0 {
		w.maxAhead = maxAhead
	}
	w.wakeBatch = min(wakeBatch, w.maxAhead/2)
	w.listDir, w.readFile = listDir, readFile
	if opt.portable {
		w.listDir, w.readFile = osListDir, osReadFile
	}
	roots := make([]node, len(paths))
	for i, p := range paths {
		roots[i] = node{path: p, kind: nodeRoot}
	}
	for i := len(roots) - 1; i >= 0; i-- {
		roots[i].queued = true
		w.stack = append(w.stack, &roots[i])
	}

	stopCtx := context.AfterFunc(ctx, w.stop)
	defer stopCtx()
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Go(func() {
			ws := workerState{nulText: w.opt.NULText}
			w.work(&ws)
		})
	}
	err := w.emitAll(roots)
	w.stop()
	wg.Wait()
	return err
}

// nodeKind is what a worker must do with a node.
type nodeKind uint8

const (
	nodeRoot nodeKind = iota // a command-line argument, not yet examined
	nodeFile                 // a regular file to read and process
	nodeDir                  // a directory to list
	nodeSkip                 // nothing to do but report the skip
)

// node is one path of the walk. Directories own their children as one slice
// so that listing a directory costs a handful of allocations, not one per
// entry.
type node struct {
	path   string
	kind   nodeKind
	queued bool        // on the work stack; guarded by walker.mu
	done   atomic.Bool // set once the fields below are final

	// Directories.
	children []node
	top      *level // ignore rules for this directory's entries
	rel      string // slash path relative to the repository root
	inRepo   bool

	// Outcome.
	result  any
	err     error
	skip    SkipReason
	skipErr error
	size    int64
}

func (n *node) setSkip(r SkipReason, err error) {
	n.kind = nodeSkip
	n.skip = r
	n.skipErr = err
}

// walker schedules the nodes. Work is a LIFO stack into which a directory's
// children are pushed in reverse, so workers take nodes in nearly the
// depth-first order the emitter delivers them (two directories listed at the
// same time may push their children in either order); the emitter therefore
// rarely waits and the finished-but-undelivered backlog stays small. The
// backlog is bounded anyway (maxAhead), so memory does not grow with the
// tree even when emit is slow.
type walker struct {
	ctx     context.Context
	opt     Options
	process func(File) (any, error)
	emit    func(string, any, error) error
	skipped func(Skip)
	loader  *loader

	listDir   func(string, *workerState) error
	readFile  func(string, *workerState, int64) ([]byte, SkipReason, int64, error)
	maxAhead  int64
	wakeBatch int64

	mu      sync.Mutex
	cond    sync.Cond // workers wait here for work or for the emitter to catch up
	stack   []*node
	active  int  // nodes being worked on
	idle    int  // workers waiting in cond for work
	stopped bool // no more work will be handed out
	awaited *node

	ahead     atomic.Int64 // finished nodes the emitter has not delivered yet
	peakAhead int64        // the largest backlog seen; for tests; guarded by mu
	parked    atomic.Int64 // workers waiting in cond for the backlog to shrink
	wake      chan struct{}
	done      <-chan struct{} // ctx.Done()
}

func (w *walker) stop() {
	w.mu.Lock()
	w.stopped = true
	w.cond.Broadcast()
	w.mu.Unlock()
}

func (w *walker) work(ws *workerState) {
	for {
		n := w.next()
		if n == nil {
			return
		}
		pre := 0
		switch n.kind {
		case nodeRoot:
			w.root(n, ws)
			pre = w.finishDir(n)
		case nodeDir:
			w.readDir(n, ws)
			pre = w.finishDir(n)
		case nodeFile:
			w.file(n, ws)
		}
		w.finish(n, pre)
	}
}

// next hands out the top of the stack. When the emitter is too far behind it
// waits, except for the node the emitter is waiting for: that one must always
// be taken or the walk would deadlock. The awaited node is always finished,
// being worked on, or on the stack, because the emitter reaches a node only
// after its parent directory finished and pushed it.
func (w *walker) next() *node {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		if w.stopped {
			return nil
		}
		select {
		case <-w.done:
			// Checked here too: the AfterFunc that sets stopped may not get
			// a CPU until the busy workers yield.
			return nil
		default:
		}
		k := len(w.stack)
		if k > 0 {
			i := k - 1
			if w.ahead.Load() >= w.maxAhead {
				// Only the awaited node may be taken. It is usually the
				// top, but two directories listed concurrently can push
				// their children in either order.
				i = -1
				if a := w.awaited; a != nil && a.queued {
					i = slices.Index(w.stack, a)
				}
			}
			if i >= 0 {
				n := w.stack[i]
				w.stack = slices.Delete(w.stack, i, i+1)
				n.queued = false
				w.active++
				return n
			}
			w.parked.Add(1)
			w.cond.Wait()
			w.parked.Add(-1)
			continue
		}
		if w.active == 0 {
			// Nothing queued and nobody can queue more: the walk is complete.
			return nil
		}
		w.idle++
		w.cond.Wait()
		w.idle--
	}
}

// finishDir counts the children that need no work (they are finished at
// creation) so that finish can account for them.
func (w *walker) finishDir(n *node) int {
	pre := 0
	for i := range n.children {
		if n.children[i].kind == nodeSkip {
			pre++
		}
	}
	return pre
}

func (w *walker) finish(n *node, pre int) {
	w.mu.Lock()
	// Count before publishing: the emitter may deliver n (and decrement)
	// as soon as it sees n done.
	if a := w.ahead.Add(int64(1 + pre)); a > w.peakAhead {
		w.peakAhead = a
	}
	pushed := 0
	for i := len(n.children) - 1; i >= 0; i-- {
		c := &n.children[i]
		if c.kind == nodeSkip {
			c.done.Store(true)
			continue
		}
		c.queued = true
		w.stack = append(w.stack, c)
		pushed++
	}
	n.done.Store(true)
	w.active--
	// Waking the emitter for every file would cost a goroutine switch per
	// file; let it sleep until a batch is ready or the work runs dry.
	if a := w.awaited; a != nil && a.done.Load() && (w.ahead.Load() >= w.wakeBatch || len(w.stack) == 0) {
		w.awaited = nil
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	if (w.idle > 0 || w.parked.Load() > 0) && (pushed > 0 || w.active == 0) {
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

// emitAll delivers every node depth first, waiting for each in turn.
func (w *walker) emitAll(roots []node) error {
	for i := range roots {
		if err := w.emitNode(&roots[i]); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) emitNode(n *node) error {
	if !n.done.Load() {
		if err := w.wait(n); err != nil {
			return err
		}
	}
	if w.ahead.Add(-1) <= w.maxAhead/2 && w.parked.Load() > 0 {
		// Workers are parked on a full backlog.
		w.mu.Lock()
		w.cond.Broadcast()
		w.mu.Unlock()
	}
	switch n.kind {
	case nodeSkip:
		if w.skipped != nil {
			w.skipped(Skip{Path: n.path, Reason: n.skip, Size: n.size, Err: n.skipErr})
		}
	case nodeFile:
		err := w.emit(n.path, n.result, n.err)
		n.result, n.err = nil, nil
		if err != nil {
			return err
		}
	case nodeDir:
		kids := n.children
		n.children = nil
		for i := range kids {
			if err := w.emitNode(&kids[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *walker) wait(n *node) error {
	for {
		w.mu.Lock()
		if n.done.Load() {
			w.awaited = nil
			w.mu.Unlock()
			return nil
		}
		if w.stopped {
			w.mu.Unlock()
			return w.ctx.Err()
		}
		w.awaited = n
		if w.parked.Load() > 0 {
			// A parked worker may take n even though the backlog is full.
			w.cond.Broadcast()
		}
		w.mu.Unlock()
		select {
		case <-w.wake:
		case <-w.ctx.Done():
			return w.ctx.Err()
		}
	}
}

// root examines a command-line argument without following a final symlink.
func (w *walker) root(n *node, ws *workerState) {
	typ, err := lstatType(n.path)
	switch {
	case err != nil:
		n.setSkip(SkipError, err)
	case typ == typeSymlink:
		n.setSkip(SkipSymlink, nil)
	case typ == typeFile:
		n.kind = nodeFile
		w.file(n, ws)
	case typ == typeDir:
		n.kind = nodeDir
		if !w.opt.NoIgnore {
			n.top, n.rel, n.inRepo = w.loader.scope(n.path)
		}
		w.readDir(n, ws)
	default:
		n.setSkip(SkipNotRegular, nil)
	}
}

// file loads the file and, unless it is skipped, runs process on it.
func (w *walker) file(n *node, ws *workerState) {
	data, reason, size, err := w.readFile(n.path, ws, w.opt.MaxSize)
	if reason != "" {
		n.setSkip(reason, err)
		n.size = size
		return
	}
	n.result, n.err = w.call(File{Path: n.path, Data: data})
}

func (w *walker) call(f File) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("internal error processing %s: %v", f.Path, r)
		}
	}()
	return w.process(f)
}

// childPrefix is what a directory contributes to its children's paths.
func childPrefix(dir string) string {
	if dir == "." || dir == "./" {
		return ""
	}
	sep := string(filepath.Separator)
	t := strings.TrimRight(dir, "/"+sep)
	if t == "" {
		// The filesystem root.
		return sep
	}
	return t + sep
}
