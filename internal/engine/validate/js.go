package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/iox"
	"github.com/prosewash/prosewash/internal/engine/jsonc"
)

// jsonParse returns nil when src parses as JSON (after its comments and
// trailing commas are blanked, for JSONC), else a position; messages never
// quote the file. A byte order mark at the start is read past in both.
func jsonParse(src []byte, withComments bool) error {
	src = jsonc.BlankBOM(src)
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
		data, err := fsx.ReadRegular(filepath.Join(dir, "package.json"), 0, true)
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

// nodeFor is the node binary the options name or PATH holds, or the
// reason there is none.
func nodeFor(opts Options) (string, string) {
	if opts.NoNode {
		return "", "node disabled: JavaScript syntax unchecked"
	}
	if opts.Node != "" {
		return opts.Node, ""
	}
	p, err := exec.LookPath("node")
	if err != nil {
		return "", "node not found on PATH: JavaScript syntax unchecked"
	}
	return p, ""
}

// checkJS is the verdict of node --check on one candidate (and, when it
// fails, on its original).
func checkJS(ctx context.Context, f Candidate, opts Options) (Status, string) {
	node, why := nodeFor(opts)
	if node == "" {
		return Unchecked, why
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

// nodeScript compiles a stream of sources ("MODE LENGTH\n" then the bytes,
// read as UTF-8 as node reads standard input) the way node --check does,
// without running any: CommonJS as the module loader wraps it
// (vm.compileFunction with the wrapper's five parameters), a module as a
// source text module. One verdict line per source: "ok", "syntax" (a
// SyntaxError) or "none" (no verdict: this node cannot compile it so, a
// module without --experimental-vm-modules).
const nodeScript = `"use strict";
const vm = require("vm");
const buf = require("fs").readFileSync(0);
const out = [];
for (let at = 0; at < buf.length;) {
  const nl = buf.indexOf(10, at);
  if (nl < 0) break;
  const [mode, len] = buf.toString("latin1", at, nl).split(" ");
  const end = nl + 1 + Number(len);
  const src = buf.toString("utf8", nl + 1, end);
  at = end;
  try {
    if (mode === "module") new vm.SourceTextModule(src);
    else vm.compileFunction(src, ["exports", "require", "module", "__filename", "__dirname"], { filename: "[stdin]" });
    out.push("ok");
  } catch (e) {
    out.push(e && e.name === "SyntaxError" ? "syntax" : "none");
  }
}
process.stdout.write(out.join("\n") + "\n");
`

// maxNodeBatch bounds the bytes one node process compiles.
const maxNodeBatch = 32 << 20

// checkJSAll checks the JavaScript candidates at idx, one node process per
// batch instead of one per file: a candidate that compiles is OK; any
// other (a syntax error, no verdict, a batch that failed) gets the
// verdict and message of node --check on it alone (checkJS), so what is
// reported for a file that does not parse is exactly what it was.
func checkJSAll(ctx context.Context, files []Candidate, idx []int, res []Result, opts Options) {
	node, why := nodeFor(opts)
	for start := 0; start < len(idx); {
		end, size := start, 0
		for end < len(idx) && (end == start || size+len(files[idx[end]].Candidate) <= maxNodeBatch) {
			size += len(files[idx[end]].Candidate)
			end++
		}
		var verdicts []string
		if node != "" {
			verdicts = nodeCompile(ctx, node, files, idx[start:end], opts.Timeout)
		}
		for n, i := range idx[start:end] {
			switch {
			case node == "":
				res[i].Status, res[i].Reason = Unchecked, why
			case n < len(verdicts) && verdicts[n] == "ok":
				res[i].Status, res[i].Reason = OK, "parses as JavaScript (node, "+jsMode(files[i].Path)+", as --check compiles it)"
			default:
				res[i].Status, res[i].Reason = checkJS(ctx, files[i], opts)
			}
		}
		start = end
	}
}

// nodeCompile runs nodeScript over the candidates at idx and returns one
// verdict per candidate it reached (none when node failed).
func nodeCompile(ctx context.Context, node string, files []Candidate, idx []int, timeout time.Duration) []string {
	var in bytes.Buffer
	for _, i := range idx {
		fmt.Fprintf(&in, "%s %d\n", jsMode(files[i].Path), len(files[i].Candidate))
		in.Write(files[i].Candidate)
	}
	out, err := batchOutput(ctx, "node", []string{node, "--experimental-vm-modules", "--no-warnings", "-e", nodeScript}, &in, timeout)
	if err != nil {
		return nil
	}
	return strings.Fields(string(out))
}
