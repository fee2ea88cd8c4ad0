package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

// writeTree creates files under dir; a path ending in "/" is a directory.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// event is one callback, in the order Walk delivered it.
type event struct {
	path   string
	skip   SkipReason
	result string
	err    string
}

func (e event) String() string {
	switch {
	case e.skip != "":
		return e.path + " [" + string(e.skip) + "]"
	case e.err != "":
		return e.path + " error: " + e.err
	}
	return e.path + " " + e.result
}

// collect walks paths and records every emit and skip, checking that the
// callbacks never overlap.
func collect(t testing.TB, paths []string, opt Options) []event {
	t.Helper()
	var events []event
	var inCallback atomic.Bool
	enter := func() {
		if !inCallback.CompareAndSwap(false, true) {
			t.Error("emit and skipped overlap")
		}
	}
	process := func(f File) (any, error) {
		if strings.Contains(f.Path, "fail") {
			return nil, errors.New("process failed")
		}
		return fmt.Sprintf("%d", len(f.Data)), nil
	}
	emit := func(path string, res any, err error) error {
		enter()
		defer inCallback.Store(false)
		e := event{path: path}
		if err != nil {
			e.err = err.Error()
		} else {
			e.result = res.(string)
		}
		events = append(events, e)
		return nil
	}
	skipped := func(s Skip) {
		enter()
		defer inCallback.Store(false)
		events = append(events, event{path: s.Path, skip: s.Reason})
	}
	if err := Walk(context.Background(), paths, opt, process, emit, skipped); err != nil {
		t.Fatalf("Walk: %v", err)
	}
	return events
}

func eventStrings(events []event) []string {
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = e.String()
	}
	return out
}

// chdir changes the working directory for the rest of the test.
func chdir(t *testing.T, dir string) {
	t.Chdir(dir)
}

// walkDirOrder is the order filepath.WalkDir visits regular files in, which
// is the order Walk promises.
func walkDirOrder(t *testing.T, root string) []string {
	t.Helper()
	var want []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			want = append(want, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return want
}

func TestWalkOrderMatchesWalkDir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	// Names chosen so that byte order, directory/file interleaving and
	// prefixes ("a" vs "a.go" vs "a-b") all matter.
	for _, d := range []string{"", "a/", "a-b/", "a/b/", "z/", "A/", "a/b/c/d/"} {
		for _, f := range []string{"a", "a.go", "a-b", "B", "z", "_", "é"} {
			files[d+f+"x"] = d + f
		}
	}
	files["a/empty/"] = ""
	writeTree(t, dir, files)
	want := walkDirOrder(t, dir)
	for _, workers := range []int{1, 2, 7} {
		for _, portable := range []bool{false, true} {
			t.Run(fmt.Sprintf("workers=%d/portable=%v", workers, portable), func(t *testing.T) {
				var got []string
				for _, e := range collect(t, []string{dir}, Options{Workers: workers, portable: portable}) {
					got = append(got, e.path)
				}
				if !slices.Equal(got, want) {
					t.Errorf("order differs\n got %q\nwant %q", got, want)
				}
			})
		}
	}
}

func TestWalkPaths(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"d/x.txt": "x", "d/e/y.txt": "yy", "top.txt": "t"})
	chdir(t, dir)
	sep := string(filepath.Separator)
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"."}, []string{"d" + sep + "e" + sep + "y.txt", "d" + sep + "x.txt", "top.txt"}},
		{[]string{"./"}, []string{"d" + sep + "e" + sep + "y.txt", "d" + sep + "x.txt", "top.txt"}},
		{[]string{"d"}, []string{"d" + sep + "e" + sep + "y.txt", "d" + sep + "x.txt"}},
		{[]string{"d/"}, []string{"d/e" + sep + "y.txt", "d/x.txt"}[:0]},
		{[]string{"d/e", "top.txt", "d/x.txt"}, []string{"d/e" + sep + "y.txt", "top.txt", "d/x.txt"}},
		{[]string{filepath.Join(dir, "d", "e")}, []string{filepath.Join(dir, "d", "e", "y.txt")}},
	}
	// "d/" keeps the user's slash and adds no second one.
	tests[3].want = []string{"d" + sep + "e" + sep + "y.txt", "d" + sep + "x.txt"}
	if sep == "/" {
		tests[3].want = []string{"d/e/y.txt", "d/x.txt"}
	}
	for _, tt := range tests {
		var got []string
		for _, e := range collect(t, tt.args, Options{}) {
			got = append(got, e.path)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Walk(%q) = %q, want %q", tt.args, got, tt.want)
		}
	}
}

func TestWalkSkips(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("a", 3*probeThreshold)
	binLate := strings.Repeat("b", BinaryPrefix) + "\x00" // NUL past the prefix: text
	binLarge := strings.Repeat("c", 100) + "\x00" + strings.Repeat("c", probeThreshold)
	writeTree(t, dir, map[string]string{
		"bin":        "abc\x00def",
		"binlarge":   binLarge,
		"binlate":    binLate,
		"big":        big,
		"empty":      "",
		"fail.txt":   "x",
		"ok.txt":     "hello",
		"sub/ok.txt": "hi",
	})
	if err := os.Symlink("ok.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "linkdir")); err != nil {
		t.Fatal(err)
	}
	if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
		testtool.Missing(t, "mkfifo", fmt.Sprintf("cannot make a FIFO here: %v", err))
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	want := []string{
		p("big") + " [too large]",
		p("bin") + " [binary]",
		p("binlarge") + " [binary]",
		p("binlate") + " 8001",
		p("empty") + " 0",
		p("fail.txt") + " error: process failed",
		p("fifo") + " [not a regular file]",
		p("link") + " [symlink]",
		p("linkdir") + " [symlink]",
		p("ok.txt") + " 5",
		p("sub/ok.txt") + " 2",
		p("missing") + " [unreadable]",
		p("link") + " [symlink]",
		p("fifo") + " [not a regular file]",
	}
	for _, portable := range []bool{false, true} {
		got := eventStrings(collect(t, []string{dir, p("missing"), p("link"), p("fifo")}, Options{MaxSize: 2 * probeThreshold, portable: portable}))
		if !slices.Equal(got, want) {
			t.Errorf("portable=%v:\n got %q\nwant %q", portable, got, want)
		}
	}
}

func TestSkipString(t *testing.T) {
	err := &fs.PathError{Op: "open", Path: "a/b", Err: fs.ErrNotExist}
	tests := []struct {
		s    Skip
		want string
	}{
		{Skip{Path: "a/b", Reason: SkipError, Err: err}, "a/b: skipped: open: file does not exist"},
		{Skip{Path: "a/b", Reason: SkipError, Err: errors.New("odd")}, "a/b: skipped: odd"},
		{Skip{Path: "big.bin", Reason: SkipTooLarge, Size: 123}, "big.bin: skipped: too large (123 bytes)"},
		{Skip{Path: "x", Reason: SkipBinary}, "x: skipped: binary"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestMaxSizeUnlimited(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": strings.Repeat("x", 5000)})
	got := eventStrings(collect(t, []string{dir}, Options{MaxSize: -1}))
	if want := []string{filepath.Join(dir, "f") + " 5000"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestProcessPanicBecomesError(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "a", "b": "b"})
	var errs []string
	err := Walk(context.Background(), []string{dir}, Options{},
		func(f File) (any, error) {
			if strings.HasSuffix(f.Path, "a") {
				panic("boom")
			}
			return nil, nil
		},
		func(path string, _ any, err error) error {
			if err != nil {
				errs = append(errs, err.Error())
			}
			return nil
		}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "internal error") || !strings.Contains(errs[0], "boom") {
		t.Errorf("errors = %q, want one internal error", errs)
	}
}

// manyFiles makes a tree of n files spread over directories.
func manyFiles(t testing.TB, n int) string {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("d%02d/s%d/f%04d.txt", i%17, i%3, i)] = "x"
	}
	writeTree(t, dir, files)
	return dir
}

func TestEmitErrorStopsWalk(t *testing.T) {
	dir := manyFiles(t, 500)
	stop := errors.New("stop here")
	var emitted, processedAfter atomic.Int64
	var returned atomic.Bool
	err := Walk(context.Background(), []string{dir}, Options{Workers: 3},
		func(File) (any, error) {
			if returned.Load() {
				processedAfter.Add(1)
			}
			return nil, nil
		},
		func(string, any, error) error {
			if emitted.Add(1) == 10 {
				return stop
			}
			return nil
		}, nil)
	returned.Store(true)
	if !errors.Is(err, stop) {
		t.Fatalf("Walk = %v, want %v", err, stop)
	}
	if emitted.Load() != 10 {
		t.Errorf("emit called %d times after returning an error, want 10", emitted.Load())
	}
	if processedAfter.Load() != 0 {
		t.Errorf("process ran %d times after Walk returned", processedAfter.Load())
	}
}

func TestCancel(t *testing.T) {
	dir := manyFiles(t, 500)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var processed atomic.Int64
	err := Walk(ctx, []string{dir}, Options{Workers: 2},
		func(File) (any, error) {
			if processed.Add(1) == 20 {
				cancel()
			}
			return nil, nil
		},
		func(string, any, error) error { return nil }, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Walk = %v, want context.Canceled", err)
	}
	if n := processed.Load(); n >= 500 {
		t.Errorf("processed all %d files despite cancellation", n)
	}
}

// TestBackPressure uses a tiny backlog bound so that workers constantly
// block on the emitter; the walk must neither deadlock nor lose order.
func TestBackPressure(t *testing.T) {
	dir := manyFiles(t, 300)
	want := walkDirOrder(t, dir)
	for _, ahead := range []int64{1, 2, 3, 8} {
		for _, workers := range []int{1, 2, 5} {
			var got []string
			for _, e := range collect(t, []string{dir}, Options{Workers: workers, maxAhead: ahead}) {
				got = append(got, e.path)
			}
			if !slices.Equal(got, want) {
				t.Errorf("maxAhead=%d workers=%d: order differs (%d files, want %d)", ahead, workers, len(got), len(want))
			}
		}
	}
}

// walkWith runs a walk on w so that the test can inspect it afterwards.
func walkWith(w *walker, paths []string, opt Options, process func(File) (any, error), emit func(string, any, error) error) error {
	return w.run(context.Background(), paths, opt, process, emit, nil)
}

// TestBacklogBounded: with an emitter far slower than the workers, the
// number of finished-but-undelivered files stays at the bound instead of
// growing to the size of the tree.
func TestBacklogBounded(t *testing.T) {
	dir := manyFiles(t, 400)
	const bound, workers = 8, 3
	w := &walker{}
	emitted := 0
	opt := Options{Workers: workers, maxAhead: bound}
	err := walkWith(w, []string{dir}, opt, func(File) (any, error) { return nil, nil },
		func(string, any, error) error {
			emitted++
			time.Sleep(20 * time.Microsecond)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if emitted != 400 {
		t.Fatalf("emitted %d files, want 400", emitted)
	}
	if w.peakAhead > bound+workers+1 {
		t.Errorf("backlog reached %d nodes, bound is %d (+%d workers)", w.peakAhead, bound, workers)
	}
	if w.peakAhead < bound {
		t.Errorf("backlog peaked at %d: the emitter was never the bottleneck, the test proves nothing", w.peakAhead)
	}
}

func TestExplicitArgumentsRepeatAndMix(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "1", "b/c": "22"})
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	got := eventStrings(collect(t, []string{a, b, a}, Options{}))
	want := []string{a + " 1", filepath.Join(b, "c") + " 2", a + " 1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNoPaths(t *testing.T) {
	if got := collect(t, nil, Options{}); len(got) != 0 {
		t.Errorf("got %v for no paths", got)
	}
}
