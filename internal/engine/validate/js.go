package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/iox"
	"github.com/prosewash/prosewash/internal/engine/jsonc"
)

// jsonParse returns nil when src parses as JSON (after its comments and
// trailing commas are blanked, for JSONC), else a position; messages never
// quote the file.
func jsonParse(src []byte, withComments bool) error {
	if withComments {
		var err error
		if src, err = jsonc.ToJSON(src); err != nil {
			return errors.New("cannot be lexed")
		}
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(src))
	err := dec.Decode(&v)
	if err == nil {
		if _, extra := dec.Token(); extra == nil {
			return errors.New("data after the top-level value")
		}
		return nil
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineColOf(src, int(se.Offset)-1) // Offset is just after the bad byte
		return fmt.Errorf("%d:%d: syntax error", line, col)
	}
	return errors.New("syntax error")
}

func lineColOf(b []byte, off int) (int, int) {
	off = min(max(off, 0), len(b))
	line := 1 + bytes.Count(b[:off], []byte{'\n'})
	return line, off - (bytes.LastIndexByte(b[:off], '\n') + 1) + 1
}

func checkJSON(f Candidate, withComments bool) (Status, string) {
	what := "JSON"
	if withComments {
		what = "JSONC"
	}
	err := jsonParse(f.Candidate, withComments)
	if err == nil {
		return OK, "parses as " + what
	}
	if jsonParse(f.Original, withComments) != nil {
		return Unchecked, "unchanged: original did not parse as " + what + " either"
	}
	return Failed, "does not parse as " + what + ": " + err.Error()
}

// jsMode returns node's --input-type for path: .mjs modules, .cjs CommonJS,
// .js whatever the nearest package.json's "type" says (CommonJS without one).
func jsMode(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".mjs":
		return "module"
	case ".cjs":
		return "commonjs"
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "commonjs"
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		data, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err == nil {
			var pkg struct {
				Type string `json:"type"`
			}
			// node reads past a byte order mark in package.json; so do we.
			if json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &pkg) == nil && pkg.Type == "module" {
				return "module"
			}
			return "commonjs"
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "commonjs"
		}
	}
}

// nodeLine returns the LINE of the "[stdin]:LINE" position node prints
// first on a syntax error, or "".
func nodeLine(out []byte) string {
	i := bytes.Index(out, []byte("[stdin]:"))
	if i < 0 {
		return ""
	}
	j := i + len("[stdin]:")
	k := j
	for k < len(out) && out[k] >= '0' && out[k] <= '9' {
		k++
	}
	return string(out[j:k])
}

// nodeCheck runs node --check over src in the given mode: nil when it
// parses, errNoVerdict when node could not give one.
func nodeCheck(ctx context.Context, node, mode string, src []byte, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--check", "--input-type="+mode)
	g := newGroup(cmd)
	defer g.close()
	cmd.Cancel = g.kill
	cmd.WaitDelay = readerGrace
	cmd.Stdin = bytes.NewReader(src)
	stderr := &iox.Limited{Max: maxPyOutput}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%w: start node: %v", errNoVerdict, err)
	}
	g.started(cmd)
	err := cmd.Wait()
	if err == nil {
		return nil
	}
	var ee *exec.ExitError
	if ctx.Err() != nil || !errors.As(err, &ee) || !bytes.Contains(stderr.Bytes(), []byte("SyntaxError")) {
		return fmt.Errorf("%w: node: %v", errNoVerdict, err)
	}
	if line := nodeLine(stderr.Bytes()); line != "" {
		return fmt.Errorf("line %s: syntax error", line)
	}
	return errors.New("syntax error")
}

var errNoVerdict = errors.New("no verdict")

func checkJS(ctx context.Context, f Candidate, opts Options) (Status, string) {
	if opts.NoNode {
		return Unchecked, "node disabled: JavaScript syntax unchecked"
	}
	node := opts.Node
	if node == "" {
		p, err := exec.LookPath("node")
		if err != nil {
			return Unchecked, "node not found on PATH: JavaScript syntax unchecked"
		}
		node = p
	}
	mode := jsMode(f.Path)
	err := nodeCheck(ctx, node, mode, f.Candidate, opts.Timeout)
	switch {
	case err == nil:
		return OK, "parses as JavaScript (node --check, " + mode + ")"
	case errors.Is(err, errNoVerdict):
		return Unchecked, err.Error() + ": JavaScript syntax unchecked"
	}
	orig := nodeCheck(ctx, node, mode, f.Original, opts.Timeout)
	switch {
	case orig == nil:
		return Failed, "does not parse as JavaScript (node --check, " + mode + "): " + err.Error()
	case errors.Is(orig, errNoVerdict):
		return Unchecked, orig.Error() + ": JavaScript syntax unchecked"
	}
	return Unchecked, "unchanged: original did not parse as JavaScript (" + mode + ") either"
}
