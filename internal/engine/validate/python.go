package validate

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/iox"
)

// pyScript parses a stream of length-prefixed sources, one verdict line per
// source, so one interpreter start serves a whole batch. It reads bytes so
// that coding cookies and BOMs are honoured exactly as python3 would.
const pyScript = `import ast, sys
r = sys.stdin.buffer
w = sys.stdout.buffer
while True:
    h = r.readline()
    if not h:
        break
    src = r.read(int(h))
    try:
        ast.parse(src)
        out = "ok"
    except SyntaxError as e:
        m = " ".join(str(e.msg or "syntax error").split())[:200]
        out = "err %d %d %s" % (e.lineno or 0, e.offset or 0, m)
    except Exception as e:
        out = "err 0 0 %s" % type(e).__name__
    w.write(out.encode("utf-8", "backslashreplace") + b"\n")
    w.flush()
`

// pyVerdict is python3's answer for one source.
type pyVerdict struct {
	answered bool // false when python3 stopped before reaching it
	ok       bool
	msg      string // "line:col: message" when !ok
}

// maxPyOutput bounds what is read back from python3: a verdict line is
// short, so anything near this is a broken interpreter.
const maxPyOutput = 1 << 20

// pythonParse runs one python3 process over all sources.
func pythonParse(ctx context.Context, python string, srcs [][]byte, timeout time.Duration) ([]pyVerdict, error) {
	var in bytes.Buffer
	for _, s := range srcs {
		in.WriteString(strconv.Itoa(len(s)))
		in.WriteByte('\n')
		in.Write(s)
	}
	// -I: ignore PYTHON* variables and the user site; -S: skip site, which
	// ast does not need and which costs start-up time.
	out, err := batchOutput(ctx, "python3", []string{python, "-I", "-S", "-c", pyScript}, &in, timeout)
	verdicts := make([]pyVerdict, len(srcs))
	sc := bufio.NewScanner(bytes.NewReader(out))
	for i := 0; i < len(srcs) && sc.Scan(); i++ {
		line := sc.Text()
		if line == "ok" {
			verdicts[i] = pyVerdict{answered: true, ok: true}
			continue
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) == 4 && f[0] == "err" {
			verdicts[i] = pyVerdict{answered: true, msg: f[1] + ":" + f[2] + ": " + f[3]}
		}
	}
	return verdicts, err
}

// batchOutput runs a checker (argv, called name in messages) over in, in a
// process group of its own that is killed whole at timeout (zero: one
// minute), and returns what it printed, at most maxPyOutput bytes (a
// verdict is a short line per file), with why it did not end well, if so.
func batchOutput(ctx context.Context, name string, argv []string, in io.Reader, timeout time.Duration) ([]byte, error) {
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	g := newGroup(cmd)
	defer g.close()
	cmd.Cancel = g.kill
	cmd.WaitDelay = readerGrace
	cmd.Stdin = in
	out := &iox.Limited{Max: maxPyOutput}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	g.started(cmd)
	werr := cmd.Wait()
	switch {
	case out.Overflowed():
		return out.Bytes(), fmt.Errorf("%s wrote more than %d bytes; a verdict is one short line per file", name, maxPyOutput)
	case werr != nil && ctx.Err() != nil:
		return out.Bytes(), fmt.Errorf("%s timed out after %s", name, timeout)
	case werr != nil:
		return out.Bytes(), fmt.Errorf("%s: %w", name, werr)
	}
	return out.Bytes(), nil
}

// checkPython fills res[i] for every i in idx with python3's verdict; the
// originals are parsed only for candidates that fail, to tell a breakage
// from a file that never parsed.
func checkPython(ctx context.Context, files []Candidate, idx []int, res []Result, opts Options) {
	unchecked := func(reason string, which []int) {
		for _, i := range which {
			res[i].Status, res[i].Reason = Unchecked, reason
		}
	}
	if opts.NoPython {
		unchecked("python3 disabled: Python syntax unchecked", idx)
		return
	}
	py := opts.Python
	if py == "" {
		p, err := exec.LookPath("python3")
		if err != nil {
			unchecked("python3 not found on PATH: Python syntax unchecked", idx)
			return
		}
		py = p
	}
	srcs := make([][]byte, len(idx))
	for k, i := range idx {
		srcs[k] = files[i].Candidate
	}
	verdicts, err := pythonParse(ctx, py, srcs, opts.Timeout)
	var failed []int
	var failMsg []string
	for k, i := range idx {
		v := verdicts[k]
		switch {
		case !v.answered:
			reason := "python3 gave no verdict: Python syntax unchecked"
			if err != nil {
				reason = err.Error() + ": Python syntax unchecked"
			}
			unchecked(reason, []int{i})
		case v.ok:
			res[i].Status, res[i].Reason = OK, "parses as Python"
		default:
			failed = append(failed, i)
			failMsg = append(failMsg, v.msg)
		}
	}
	if len(failed) == 0 {
		return
	}
	srcs = srcs[:0]
	for _, i := range failed {
		srcs = append(srcs, files[i].Original)
	}
	orig, err := pythonParse(ctx, py, srcs, opts.Timeout)
	for k, i := range failed {
		v := orig[k]
		switch {
		case !v.answered:
			reason := "python3 gave no verdict on the original: Python syntax unchecked"
			if err != nil {
				reason = err.Error() + ": Python syntax unchecked"
			}
			unchecked(reason, []int{i})
		case v.ok:
			res[i].Status, res[i].Reason = Failed, "does not parse as Python: "+failMsg[k]
		default:
			res[i].Status, res[i].Reason = Unchecked, "unchanged: original did not parse as Python either"
		}
	}
}
