package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
)

// shellChecker returns the argv that syntax-checks a script of the given
// dialect read from standard input (-n: read, never run), or a reason it
// cannot be checked here. Only the shell itself is trusted to say a script
// parses: bash for bash, dash (else bash in POSIX mode) for sh, mksh and zsh
// for theirs.
func shellChecker(dialect string, look func(string) (string, error)) ([]string, string) {
	type try struct {
		prog string
		args []string
	}
	var tries []try
	switch dialect {
	case "bash":
		tries = []try{{"bash", []string{"--norc", "--noprofile", "-n"}}}
	case "sh", "dash", "ash":
		tries = []try{{"dash", []string{"-n"}}, {"bash", []string{"--norc", "--noprofile", "--posix", "-n"}}}
	case "ksh", "mksh":
		tries = []try{{"mksh", []string{"-n"}}, {"ksh", []string{"-n"}}}
	case "zsh":
		tries = []try{{"zsh", []string{"-f", "-n"}}}
	case "bats":
		return nil, "bats files are preprocessed by bats: shell syntax unchecked"
	default:
		return nil, "unknown shell dialect: syntax unchecked"
	}
	var names []string
	for _, tr := range tries {
		if p, err := look(tr.prog); err == nil {
			return append([]string{p}, tr.args...), ""
		}
		names = append(names, tr.prog)
	}
	return nil, strings.Join(names, " or ") + " not found on PATH: " + dialect + " syntax unchecked"
}

// shellParse runs argv over src; a nil error means the shell accepted it.
// The message keeps only the shell's first line, with its position.
func shellParse(ctx context.Context, argv []string, src []byte, timeout time.Duration) (ok bool, msg string, err error) {
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
	cmd.Env = []string{"LC_ALL=C"}
	cmd.Stdin = bytes.NewReader(src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return false, "", err
	}
	g.started(cmd)
	werr := cmd.Wait()
	if ctx.Err() != nil {
		return false, "", fmt.Errorf("%s timed out after %s", argv[0], timeout)
	}
	var exit *exec.ExitError
	if werr == nil {
		return true, "", nil
	}
	if !errors.As(werr, &exit) {
		return false, "", werr
	}
	line, _, _ := strings.Cut(stderr.String(), "\n")
	return false, shellMessage(line), nil
}

// shellMessage keeps the position of a shell's syntax error and drops the
// quoted source text some shells append ("near unexpected token `x'").
func shellMessage(line string) string {
	if i := strings.Index(line, "line "); i >= 0 {
		line = line[i:]
	}
	if i := strings.Index(line, " near "); i >= 0 {
		line = line[:i]
	}
	if len(line) > 200 {
		line = line[:200]
	}
	return line
}

func checkShell(ctx context.Context, f Candidate, opts Options) (Status, string) {
	dialect := f.Dialect
	argv, why := shellChecker(dialect, exec.LookPath)
	if argv == nil {
		return Unchecked, why
	}
	ok, msg, err := shellParse(ctx, argv, f.Candidate, opts.Timeout)
	if err != nil {
		return Unchecked, err.Error() + ": shell syntax unchecked"
	}
	if ok {
		return OK, "parses as " + dialect + " (" + argv[0] + " -n)"
	}
	// The original is parsed only now, to tell a breakage from a script
	// that never parsed.
	if okOrig, _, err := shellParse(ctx, argv, f.Original, opts.Timeout); err == nil && !okOrig {
		return Unchecked, "unchanged: original did not parse as " + dialect + " either"
	} else if err != nil {
		return Unchecked, err.Error() + ": shell syntax unchecked"
	}
	return Failed, "does not parse as " + dialect + ": " + msg
}

// tomlParse returns nil when go-toml decodes src (syntax, duplicate keys
// and redefined tables included), else the position of the first error;
// the message is left out because it can quote a key.
func tomlParse(src []byte) error {
	var v map[string]any
	err := toml.Unmarshal(src, &v)
	if err == nil {
		return nil
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		return fmt.Errorf("%d:%d: invalid TOML", line, col)
	}
	return fmt.Errorf("does not decode")
}

func checkTOML(f Candidate) (Status, string) {
	err := tomlParse(f.Candidate)
	if err == nil {
		return OK, "parses as TOML"
	}
	if tomlParse(f.Original) != nil {
		return Unchecked, "unchanged: original did not parse as TOML either"
	}
	return Failed, "does not parse as TOML: " + err.Error()
}
