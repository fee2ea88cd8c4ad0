package lane

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/wash"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
)

// MaxReadBytes bounds what the lane reads of one memory file into memory. A larger file gets
// a streamed reading (its tokens are counted piece by piece, never zero) and is never planned
// or touched: it is a capacity wall whose advice is to split or externalize it.
const MaxReadBytes = 4 << 20

// maxStreamBytes bounds a streamed reading; a file larger still is priced by extrapolating
// the tokens per byte of its first maxStreamBytes.
const maxStreamBytes = 256 << 20

// Options inject what the lane would otherwise take from the process.
type Options struct {
	// Home is the user's home (default os.UserHomeDir).
	Home string
	// Getenv reads CLAUDE_CONFIG_DIR, CODEX_HOME and PROSEWASH_FAILPOINT (default os.Getenv).
	Getenv func(string) string
	// Now is the clock for bins, history and receipts (default time.Now).
	Now func() time.Time
	// Start is the directory the agent session starts in (a hook's cwd, the command's working
	// directory): the platforms load the memory of every directory from the project root down
	// to it. Empty or outside the project means the project root.
	Start string
	// Platform is the session's own platform when known (a hook knows it): the headline
	// figures and the band are that platform's load. Empty means the platform with the most
	// fat, then the largest load.
	Platform string
}

// Lane is the memory wash of one project.
type Lane struct {
	p        *project.Project
	home     string
	getenv   func(string) string
	now      func() time.Time
	start    string
	platform string
	// off disables individual safety checks; only tests set it, to prove each one is what
	// stops a loss.
	off struct{ gate, pin, allOrNothing, bank bool }
	// beforeExecute and afterBank are test seams: a foreign write landing after the plan was
	// read, or after the originals were banked and before the first swap.
	beforeExecute, afterBank func()
}

// New returns the lane of project p.
func New(p *project.Project, o Options) *Lane {
	l := &Lane{p: p, home: o.Home, getenv: o.Getenv, now: o.Now, start: o.Start, platform: o.Platform}
	if l.home == "" {
		l.home, _ = os.UserHomeDir()
	}
	if l.getenv == nil {
		l.getenv = os.Getenv
	}
	if l.now == nil {
		l.now = time.Now
	}
	return l
}

// Project is the lane's project.
func (l *Lane) Project() *project.Project { return l.p }

// config returns the wash configuration; a configuration that cannot be loaded is an error
// for commands (hooks treat it as "off").
func (l *Lane) config() (config.Wash, error) {
	cfg, _, err := l.p.Config()
	if err != nil {
		return config.Wash{}, err
	}
	if cfg == nil {
		return config.Default().Wash, nil
	}
	return cfg.Wash, nil
}

// BandConfig maps the [wash] keys onto the gauge's thresholds. capacity_tokens is documented
// as the footprint at which the wall is reached, so it is the wall itself (100%).
func BandConfig(w config.Wash) gauge.Config {
	c := gauge.DefaultConfig()
	if w.FatArmTokens > 0 {
		c.FatArmTokens = w.FatArmTokens
		c.FatDisarmTokens = w.FatDisarmTokens
	}
	if w.CapacityTokens > 0 {
		c.CapacityTokens, c.WallPercent = w.CapacityTokens, 100
	}
	if w.IndexMaxBytes > 0 {
		c.IndexMaxBytes = w.IndexMaxBytes
	}
	if w.IndexMaxLines > 0 {
		c.IndexMaxLines = w.IndexMaxLines
	}
	c.BudgetTokens = w.BudgetTokens
	return c
}

// staleAfter is the staleness horizon of the judgement candidates.
func staleAfter(w config.Wash) time.Duration {
	if w.StaleDays <= 0 {
		return 0 // judge.DefaultStaleAfter
	}
	return time.Duration(w.StaleDays) * 24 * time.Hour
}

func (l *Lane) discoverOptions(platforms []string) discover.Options {
	return discover.Options{Home: l.home, ProjectRoot: l.p.Root, Start: l.start, Getenv: l.getenv, Platforms: platforms}
}

// TrustedRoots are the directories outside the project a wash transaction may write in: the
// platforms' config directories that exist (the Claude memory directory lies in the first).
// Recovery trusts exactly these.
func (l *Lane) TrustedRoots() []string {
	var out []string
	for _, d := range discover.ConfigDirs(l.discoverOptions(nil)) {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() || real == l.p.Root || within(l.p.Root, real) {
			continue
		}
		if !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out
}

// reading is one measurement of the project's memory.
type reading struct {
	res     discover.Result
	src     *LoadSource // where Claude Code's load list came from
	rep     wash.Report
	content map[string][]byte // real path -> bytes read
	real    map[string]string // discovered (lexical) path -> real path
	entry   map[string]discover.Entry
	cfg     config.Wash
	errs    []error
}

// writable returns the real paths the lane may write in this reading: the owned files (a
// file several platforms load is owned only if every one of them says so).
func (r *reading) writable() map[string]bool {
	w := map[string]bool{}
	for _, f := range r.rep.Files {
		if f.Owned {
			w[f.Real] = true
		}
	}
	return w
}

// read reads one memory file, refusing what is not a regular file or is too large.
func read(path string) ([]byte, error) {
	b, _, err := fsx.ReadFile(path, MaxReadBytes)
	return b, err
}

// count is the streamed reading of a file too large to read whole: a regular file, opened
// without following a symlink, estimated piece by piece; past maxStreamBytes the tokens per
// byte read so far are extrapolated to the file's size.
func count(path string) (int, error) {
	f, fi, err := fsx.OpenRegular(path, false)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	tok, n, err := gauge.EstimateReader(io.LimitReader(f, maxStreamBytes))
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	if n > 0 && fi.Size() > n {
		tok = int(float64(tok) * float64(fi.Size()) / float64(n))
	}
	return tok, nil
}

// measure discovers and measures the memory (platforms empty: every platform). tree decides
// whether dead links are looked for (a stat per relative link, a walk only when one is dead);
// light skips planning recall-only notes (same measurement, for the session-start gauge); a
// discovery already made (pre) is reused.
func (l *Lane) measure(platforms []string, withTree bool, light bool, pre *discovered) (*reading, error) {
	return l.measureAllowing(platforms, withTree, light, pre, nil)
}

// measureAllowing is measure with user-level files named explicitly on a terminal (allow,
// by real path) treated as owned: only Markdown memory files a platform loads from its config
// directory qualify; code, JSON and settings never do.
func (l *Lane) measureAllowing(platforms []string, withTree bool, light bool, pre *discovered, allow map[string]bool) (*reading, error) {
	w, err := l.config()
	if err != nil {
		return nil, err
	}
	var res discover.Result
	var src *LoadSource
	if pre != nil {
		res, src = pre.res, pre.src
	} else if res, src, err = l.discover(platforms); err != nil {
		return nil, err
	}
	r := &reading{res: res, src: src, content: map[string][]byte{}, real: map[string]string{}, entry: map[string]discover.Entry{}, cfg: w}
	for i, e := range res.Entries {
		if allow[e.Real] && l.userLevel(e) {
			e.Owned = true
			res.Entries[i] = e
		}
		r.real[e.Path] = e.Real
		if _, ok := r.entry[e.Real]; !ok {
			r.entry[e.Real] = e
		}
	}
	r.res = res
	opts := quick.Options{IndexMaxBytes: w.IndexMaxBytes, IndexMaxLines: w.IndexMaxLines, Show: l.rel}
	if withTree {
		opts.LinkRoots = l.linkRoots(res)
		opts.Tree = newLazyTree(opts.LinkRoots, 20000)
	}
	rd := func(path string) ([]byte, error) {
		b, err := read(path)
		if err == nil {
			r.content[path] = b
		}
		return b, err
	}
	var led *ages
	stateDir, serr := l.stateDir()
	if serr == nil {
		led = loadAges(stateDir)
	}
	mc := wash.Config{Read: rd, Limit: MaxReadBytes, Count: count, Platform: l.platform, Quick: opts, Light: light,
		Now: l.now(), StaleAfter: staleAfter(w)}
	if led != nil {
		mc.FirstSeen = led.FirstSeen
	}
	if serr == nil {
		mc.Kept = keptLines(stateDir)
	}
	r.rep = wash.Measure(res, mc)
	r.errs = r.rep.Errors
	if led != nil {
		// The ledger learns the lines of this reading; a failure to save it only makes
		// entries look younger next time.
		loaded := map[string][]byte{}
		for _, f := range r.rep.Files {
			if c, ok := r.content[f.Real]; ok && f.AlwaysLoaded && f.Owned {
				loaded[f.Real] = c
			}
		}
		led.note(loaded, l.now())
		_ = led.save(stateDir)
	}
	return r, nil
}

// discovered is a discovery made earlier in a run, reused by a measurement.
type discovered struct {
	res discover.Result
	src *LoadSource
}

// userLevel reports a file the user may wash by naming it on a terminal: a Markdown memory
// file a platform loads from its per-user config directory (~/.claude, the Codex home,
// ~/.gemini), never an inherited one, code, JSON or settings.
func (l *Lane) userLevel(e discover.Entry) bool {
	if e.Inherited || !discover.MarkdownName(e.Real) {
		return false
	}
	for _, d := range l.TrustedRoots() {
		if within(e.Real, d) {
			return true
		}
	}
	return false
}

// linkRoots are where a moved link target may be found: the project and the memory dir.
func (l *Lane) linkRoots(res discover.Result) []string {
	roots := []string{l.p.Root}
	if md, err := filepath.EvalSymlinks(discover.MemoryDir(l.discoverOptions(nil))); err == nil {
		roots = append(roots, md)
	}
	return roots
}

// storeBytes is the measured store: every owned file's bytes, the bins' budget base.
func (r *reading) storeBytes() int64 {
	var n int64
	for _, f := range r.rep.Files {
		if !f.Inherited {
			n += f.Size
		}
	}
	return n
}

// lazyTree answers the Quick planner's questions with a stat per link and walks the roots
// only when some link is dead, so a gauge over a large repository stays cheap.
type lazyTree struct {
	roots  []string
	limit  int
	walked quick.Tree
	err    error
}

func newLazyTree(roots []string, limit int) *lazyTree { return &lazyTree{roots: roots, limit: limit} }

// Exists treats anything that exists as existing, inside the roots or not: a link to a file
// outside them is not dead.
func (t *lazyTree) Exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil || !errors.Is(err, fs.ErrNotExist)
}

// ByBase walks the roots once; a walk that fails or is too large finds no candidates, so a
// dead link is flagged, never repointed on a partial view.
func (t *lazyTree) ByBase(name string) []string {
	if t.walked == nil && t.err == nil {
		t.walked, t.err = quick.ScanTree(t.roots, t.limit)
	}
	if t.err != nil {
		return nil
	}
	return t.walked.ByBase(name)
}

func within(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (!filepath.IsAbs(rel) && rel != ".." && !hasDotDotPrefix(rel))
}

func hasDotDotPrefix(rel string) bool {
	return len(rel) >= 3 && rel[:2] == ".." && rel[2] == filepath.Separator
}

// rel renders a path for messages: relative to the project, ~-relative under home, else as is.
func (l *Lane) rel(p string) string {
	if within(p, l.p.Root) {
		return l.p.Rel(p)
	}
	if l.home != "" && within(p, l.home) {
		if r, err := filepath.Rel(l.home, p); err == nil {
			return "~/" + filepath.ToSlash(r)
		}
	}
	return p
}

// Rel renders a path the way the lane's messages do.
func (l *Lane) Rel(p string) string { return l.rel(p) }

func (l *Lane) stateDir() (string, error) {
	d, err := l.p.StateDir()
	if err != nil {
		return "", fmt.Errorf("state dir: %w", err)
	}
	return d, nil
}
