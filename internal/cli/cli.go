package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/approval"
)

// release is the prosewash release this source tree is.
const release = "0.2.0"

// Version is the prosewash version: the release, and for a build from a
// git checkout the commit and whether the tree was modified
// ("0.2.0+4f1c2ab3d9e0", "0.2.0+4f1c2ab3d9e0.dirty"). Built-in providers
// report it as theirs, so an approval names the exact build it approved and
// a binary rebuilt from other sources lapses it.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return release
	}
	return versionFrom(bi.Settings)
}

func versionFrom(settings []debug.BuildSetting) string {
	var rev string
	var dirty bool
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return release
	}
	v := release + "+" + rev[:min(12, len(rev))]
	if dirty {
		v += ".dirty"
	}
	return v
}

// env is what every command receives: the streams, the output helpers and
// the context that SIGINT and SIGTERM cancel.
type env struct {
	ctx context.Context
	// arm makes SIGINT and SIGTERM cancel ctx from now on, where Main
	// catches them only late ([lazyInterrupt]); a no-op where they are
	// caught already.
	arm    func()
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	ui     *ui
	color  string
	// caller, when set, replaces the real process as the one asking for an
	// approval (its environment and ancestry): tests only; see who.
	caller *approval.Caller
}

type command struct {
	name string
	args string // synopsis after the name
	// synopsis, when set, computes args where it is shown: install's and
	// hook's list every platform, which every hook process would otherwise
	// build only to dispatch.
	synopsis func() string
	summary  string
	help     string // extra text for "prosewash help NAME"
	run      func(e *env, args []string) error
	hidden   bool
}

// usage is the synopsis after the name.
func (c command) usage() string {
	if c.synopsis != nil {
		return c.synopsis()
	}
	return c.args
}

func commands() []command {
	return []command{
		{name: "check", args: "[--format text|json|sarif|github] [--exclude GLOB] [--exit-zero] PATH... | -", summary: "report invisible carriers and the region each sits in", help: checkHelp, run: runCheck},
		{name: "clean", args: "[PATH...]", summary: "remove carriers from the prose regions of files", help: cleanHelp, run: runClean},
		{name: "test", args: "FILE...", summary: "run the pipeline and validation, report, and always restore the originals", help: testHelp, run: runTest},
		{name: "classify", args: "FILE [--show | --json]", summary: "show how a file splits into prose, directive and runtime regions", help: classifyHelp, run: runClassify},
		{name: "providers", args: "[--json]", summary: "list providers, their operations, bindings and availability", help: providersHelp, run: runProviders},
		{name: "pipelines", args: "[--json]", summary: "list pipelines and their resolved stages", help: pipelinesHelp, run: runPipelines},
		{name: "validate-pipeline", args: "ID|FILE [--explicit-target]", summary: "check one pipeline definition", help: validatePipelineHelp, run: runValidatePipeline},
		{name: "recover", args: "[--abandon RUN]", summary: "bring an interrupted run to a safe end", help: recoverHelp, run: runRecover},
		{name: "status", args: "[--json]", summary: "show configuration, versions, project root, state location and pending runs", help: statusHelp, run: runStatus},
		{name: "record", args: "[--session ID] PATH...", summary: "record files as written in an agent session (path and hash only)", help: recordHelp, run: runRecord},
		{name: "recorded", args: "[--session ID] [--json]", summary: "list a session's recorded files with their status", help: recordedHelp, run: runRecorded},
		{name: "forget", args: "[--session ID] [PATH...]", summary: "drop files (or the whole session) from a session's record", help: forgetHelp, run: runForget},
		{name: "approve", args: "[--mode automatic|confirm|manual] [--revoke]", summary: "review and approve what the Stop hook runs (needs a terminal)", help: approveHelp, run: runApprove},
		{name: "install", synopsis: func() string { return componentSynopsis() + " [--mode M]" }, summary: "add git hooks, agent hooks (Claude Code's by default) and the git clean-prose alias", help: installHelp, run: runInstall},
		{name: "uninstall", synopsis: componentSynopsis, summary: "remove what install added, restoring previous hooks", help: uninstallHelp, run: runUninstall},
		{name: "hook", synopsis: hookSynopsis, summary: "hook entry points for the agents and git (install wires them up)", help: hookHelp, run: runHook},
		{name: "wash", args: "COMMAND [ARGS]", summary: "keep always-loaded agent memory lean without losing a fact (wash help)", run: runWash},
		{name: "provider", args: "ID", summary: "run a built-in provider (speaks the provider protocol on stdin/stdout)", run: runProvider, hidden: true},
		{name: "completion", args: "bash|zsh|fish", summary: "print a shell completion script", help: completionHelp, run: runCompletion},
		{name: "man", summary: "print the prosewash(1) manual page", help: manHelp, run: runMan},
		{name: "version", summary: "print the version", run: runVersion},
		{name: "help", args: "[COMMAND]", summary: "show help", run: nil},
	}
}

// Main runs prosewash with args (without the program name) and returns the
// process exit status. It never calls os.Exit.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return mainWith(commands(), args, stdin, stdout, stderr)
}

// mainWith is Main over a given command table, so tests can add commands
// (one that panics, say) without a hidden command in the binary.
func mainWith(cmds []command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	colour := "auto"
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		a := args[0]
		switch {
		case a == "--help" || a == "-h":
			printHelp(stdout, "")
			return exitOK
		case a == "--version":
			args = []string{"version"}
			continue
		case strings.HasPrefix(a, "--color="):
			colour = strings.TrimPrefix(a, "--color=")
		case a == "--color" && len(args) > 1:
			colour = args[1]
			args = args[1:]
		default:
			u := newUI(stdout, stderr, colour)
			u.errorf("unknown option %s", a)
			u.hintf("run 'prosewash --help'")
			return exitUsage
		}
		args = args[1:]
	}
	u := newUI(stdout, stderr, colour)
	if colour != "auto" && colour != "always" && colour != "never" {
		u.errorf("--color must be auto, always or never, not %q", colour)
		return exitUsage
	}
	if len(args) == 0 {
		printHelp(stderr, "")
		return exitUsage
	}
	in := interruptible
	if agentHookInProcess(args) {
		in = lazyInterrupt
	}
	intr := in(u, holdsLocks)
	defer intr.stop()
	e := &env{ctx: intr.ctx, arm: intr.arm, stdin: stdin, stdout: stdout, stderr: stderr, ui: u, color: colour}
	name := args[0]
	if name == "help" {
		if len(args) > 2 && args[1] == "wash" {
			// "help wash COMMAND" is "wash COMMAND --help".
			name, args = "wash", []string{"wash", args[2], "--help"}
		} else {
			topic := ""
			if len(args) > 1 {
				topic = args[1]
			}
			if !printHelp(stdout, topic) {
				u.errorf("no help for %q: there is no such command", topic)
				u.hintf("run 'prosewash --help' for the list of commands")
				return exitUsage
			}
			return exitOK
		}
	}
	for _, c := range cmds {
		if c.name != name || c.run == nil {
			continue
		}
		if c.name != "wash" && wantsHelp(args[1:]) {
			// wash has subcommands of its own and answers --help itself.
			printHelp(stdout, name)
			return exitOK
		}
		return intr.wait(func() int { return runCommand(e, u, c, name, args[1:]) })
	}
	u.errorf("unknown command %q", name)
	u.hintf("run 'prosewash --help'")
	return exitUsage
}

// runCommand runs one command and maps its outcome to the exit status.
func runCommand(e *env, u *ui, c command, name string, args []string) (code int) {
	defer func() {
		// A bug must not turn into a Go stack trace in a user's terminal
		// or a hook's stdout; report it and exit with its own status.
		if r := recover(); r != nil {
			u.errorf("internal error in %s: %v", name, r)
			u.hintf("this is a bug in prosewash %s; please report it with the command you ran", Version())
			code = exitInternal
		}
	}()
	err := c.run(e, args)
	if err != nil && !silent(err) && err.Error() != "" {
		var ue *usageError
		u.errorf("%s", err)
		if errors.As(err, &ue) {
			u.hintf("run 'prosewash help %s'", name)
		}
	}
	if e.ctx.Err() != nil {
		// The command finished what it had started (a rollback, a
		// report) after the interrupt: it did not complete.
		u.warnf("interrupted: stopped at a safe point; what this run had changed is put back")
		return exitInterrupted
	}
	return exitCode(err)
}

// wantsHelp reports whether args ask for help: -h, --help or -help (which
// the flag package also reads as help) anywhere before a "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "--help", "-help":
			return true
		}
	}
	return false
}

// newFlags returns a flag set whose errors become usage errors instead of
// printing and exiting.
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses flags anywhere in args (flags after paths are allowed;
// "--" ends flags).
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, flag.ErrHelp
			}
			return nil, usagef("%s: %s", fs.Name(), flagProblem(err, args))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// printHelp prints the help of topic (the overview when empty) and
// reports whether there is such a topic; it prints nothing when not.
// flagProblem says what was wrong with an option in the user's own
// spelling: the flag package writes every option with one dash ("flag
// provided but not defined: -quiet" for --quiet).
func flagProblem(err error, args []string) string {
	msg := err.Error()
	for _, p := range []struct{ prefix, format string }{
		{"flag provided but not defined: ", "unknown option %s"},
		{"flag needs an argument: ", "option %s needs a value"},
	} {
		if name, ok := strings.CutPrefix(msg, p.prefix); ok {
			return fmt.Sprintf(p.format, typedAs(strings.TrimLeft(name, "-"), args))
		}
	}
	return msg
}

// typedAs is the option name as args spell it (-x or --x), with two
// dashes when it is not found.
func typedAs(name string, args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		opt, _, _ := strings.Cut(a, "=")
		if strings.TrimLeft(opt, "-") == name && strings.HasPrefix(opt, "-") {
			return opt
		}
	}
	return "--" + name
}

func printHelp(w io.Writer, topic string) bool {
	if topic != "" {
		for _, c := range commands() {
			if c.name == topic {
				fmt.Fprintf(w, "usage: %s\n\n%s\n", strings.TrimSpace("prosewash "+c.name+" "+c.usage()), c.summary)
				if c.help != "" {
					fmt.Fprintf(w, "\n%s\n", c.help)
				}
				return true
			}
		}
		return false
	}
	fmt.Fprintf(w, "prosewash %s: clean what AI coding agents write, without becoming a new source of bugs\n\n", Version())
	fmt.Fprintf(w, "usage: prosewash [--color auto|always|never] COMMAND [ARGS]\n\nCOMMANDS\n")
	for _, c := range commands() {
		if c.hidden {
			continue
		}
		fmt.Fprintf(w, "  %-18s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'prosewash help COMMAND' for a command's options.\n\n%s\n\n%s\n", envHelp, exitStatusHelp)
	return true
}

const envHelp = `ENVIRONMENT
  NO_COLOR              disable colour
  PROSEWASH_STATE_DIR   where journals, backups and records live (default: the XDG state dir)
  PROSEWASH_SESSION     the session record clean, recorded, forget and the git hooks use
                        (default: the most recent session)
  PROSEWASH=0           installed git hooks skip prosewash for one command
  PROSEWASH_FAILPOINT   for tests: kill the process at a named transaction step
                        (see internal/engine/txn/failpoint.go); never set it otherwise`
