package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/iox"
)

// Call is one invocation of a provider operation.
type Call struct {
	Def  *Definition
	Op   *Operation
	Vars map[string]string // values for ${name} in argv
	// Bind is what the plan bound the definition to. Run starts only the
	// program it names, and only while it hashes as bound.
	Bind Binding
	Dir  string   // working directory: the project root
	Env  []string // nil means inherit
}

// ShippedArgv0 is argv[0] of a shipped provider, which is the prosewash
// binary itself: whatever its file is called, it runs as prosewash.
const ShippedArgv0 = "prosewash"

// RunError says a provider failed; the file or files in its request are
// refused, the run goes on.
type RunError struct {
	Provider string
	Kind     string // one of the Fail* kinds
	Msg      string
	Stderr   string // tail of the provider's stderr, for the report
	Err      error  // the cause, when there is one (a *ChangedError)
}

func (e *RunError) Unwrap() error { return e.Err }

// Kinds of provider failure. The engine retries a batch file by file only
// after a crash or a malformed reply: a timeout would cost N times the
// timeout, and a deliberate refusal would be refused again.
const (
	FailStart     = "start"     // the program could not be started
	FailTimeout   = "timeout"   // killed at the definition's timeout
	FailExit      = "exit"      // exited non-zero
	FailMalformed = "malformed" // the reply is not a valid protocol document
	FailRefused   = "refused"   // the reply carries an error: the provider refused
)

// Retryable reports whether splitting the batch could help.
func (e *RunError) Retryable() bool { return e.Kind == FailExit || e.Kind == FailMalformed }

func (e *RunError) Error() string {
	msg := fmt.Sprintf("provider %s: %s", e.Provider, e.Msg)
	if s := strings.TrimSpace(e.Stderr); s != "" {
		msg += ": " + lastLine(s)
	}
	return msg
}

const (
	maxStderr   = 4 << 10
	maxReplyMin = 64 << 20
)

// Expand substitutes ${name} variables in argv. An unknown or unset
// variable is an error: a provider must never run with a half-built argv.
func Expand(argv []string, vars map[string]string) ([]string, error) {
	out := make([]string, len(argv))
	for i, a := range argv {
		var err error
		out[i] = replaceVars(a, func(name string) string {
			v, ok := vars[name]
			if !ok && err == nil {
				err = fmt.Errorf("argv element %d needs ${%s}, which is not set", i, name)
			}
			return v
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Run sends req to the provider and returns its reply. It enforces the
// definition's timeout (killing the whole process group), bounds the reply
// size and decodes it strictly.
func Run(ctx context.Context, c Call, req *Request) (*Reply, error) {
	name := c.Def.Ref(c.Op)
	fail := func(kind, format string, args ...any) error {
		return &RunError{Provider: name, Kind: kind, Msg: fmt.Sprintf(format, args...)}
	}
	req.Protocol = Protocol
	req.Operation = c.Op.Name
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fail(FailStart, "encode request: %v", err)
	}
	vars := map[string]string{}
	for k, v := range c.Vars {
		vars[k] = v
	}
	// A private directory per run: the request and reply files, and
	// Python's byte-code cache (see providerEnv).
	dir, err := os.MkdirTemp("", "prosewash-provider-")
	if err != nil {
		return nil, fail(FailStart, "temp dir: %v", err)
	}
	defer os.RemoveAll(dir)
	var inFile, outFile string
	if c.Def.IO == "files" {
		inFile, outFile = filepath.Join(dir, "request.json"), filepath.Join(dir, "reply.json")
		if err := os.WriteFile(inFile, body, 0o600); err != nil {
			return nil, fail(FailStart, "write request: %v", err)
		}
		vars["input"], vars["output"] = inFile, outFile
	}
	argv, err := Expand(append(append([]string{}, c.Def.Command...), c.Op.Args...), vars)
	if err != nil {
		return nil, fail(FailStart, "%v", err)
	}
	l, err := pin(c.Bind, argv, c.Dir)
	if err != nil {
		return nil, &RunError{Provider: name, Kind: FailStart, Msg: err.Error(), Err: err}
	}
	defer l.close()
	timeout := time.Duration(c.Def.Timeout) * time.Second
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.path, argv[1:]...)
	cmd.Args[0] = argv[0]
	if c.Bind.Kind == BoundShipped {
		cmd.Args[0] = ShippedArgv0
	}
	cmd.ExtraFiles = l.extra
	cmd.Dir = c.Dir
	cmd.Env = providerEnv(c.Env, filepath.Join(dir, "pycache"))
	setProcessGroup(cmd)
	// A grandchild holding our pipes open must not hang the run.
	cmd.WaitDelay = 2 * time.Second
	maxReply := maxReplyMin + 4*len(body)
	stdout := &iox.Limited{Max: maxReply}
	stderr := iox.NewTail(maxStderr)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if c.Def.IO == "stdio" {
		cmd.Stdin = bytes.NewReader(body)
	}
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return nil, &RunError{Provider: name, Kind: FailTimeout, Msg: fmt.Sprintf("timed out after %s", timeout), Stderr: stderr.String()}
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, &RunError{Provider: name, Kind: FailExit, Msg: fmt.Sprintf("exited with %s", ee.ProcessState), Stderr: stderr.String()}
		}
		return nil, &RunError{Provider: name, Kind: FailStart, Msg: fmt.Sprintf("could not run %s: %v", argv[0], err), Stderr: stderr.String()}
	}
	if err := l.intact(); err != nil {
		return nil, &RunError{Provider: name, Kind: FailStart, Msg: err.Error(), Err: err}
	}
	if stdout.Overflowed() {
		return nil, &RunError{Provider: name, Kind: FailMalformed, Msg: fmt.Sprintf("reply larger than %d bytes", maxReply)}
	}
	replyBytes := stdout.Bytes()
	if c.Def.IO == "files" {
		replyBytes, err = readLimited(outFile, int64(maxReply))
		if err != nil {
			return nil, &RunError{Provider: name, Kind: FailMalformed, Msg: fmt.Sprintf("read reply: %v", err), Stderr: stderr.String()}
		}
	}
	reply := &Reply{}
	dec := json.NewDecoder(bytes.NewReader(replyBytes))
	if err := dec.Decode(reply); err != nil {
		return nil, &RunError{Provider: name, Kind: FailMalformed, Msg: fmt.Sprintf("malformed reply: %v", err), Stderr: stderr.String()}
	}
	if dec.More() {
		return nil, &RunError{Provider: name, Kind: FailMalformed, Msg: "malformed reply: more than one JSON document"}
	}
	if reply.Protocol != Protocol {
		return nil, fail(FailMalformed, "reply speaks protocol %q, want %q", reply.Protocol, Protocol)
	}
	if reply.Error != "" {
		return nil, fail(FailRefused, "refused the request: %s", lastLine(reply.Error))
	}
	return reply, nil
}

// providerEnv is the environment a provider runs with: env (nil: this
// process's) with Python's byte-code cache moved to a private directory
// and never written. A Python provider would otherwise write __pycache__
// next to its modules, into the directory its approval covers, and lapse
// that approval on its first run; and with the cache elsewhere it never
// reads byte code found next to them either, which is why the coverage can
// leave __pycache__ out (approval.coverTrees).
func providerEnv(env []string, pycache string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PYTHONDONTWRITEBYTECODE=") && !strings.HasPrefix(kv, "PYTHONPYCACHEPREFIX=") {
			out = append(out, kv)
		}
	}
	return append(out, "PYTHONDONTWRITEBYTECODE=1", "PYTHONPYCACHEPREFIX="+pycache)
}

func readLimited(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("reply larger than %d bytes", max)
	}
	return b, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
