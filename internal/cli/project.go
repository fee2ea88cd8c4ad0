package cli

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
)

// openProject finds the project the command runs in. Under a git alias the
// process starts at the top of the work tree, which is the project anyway.
func openProject(e *env) (*project.Project, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	home, _ := os.UserHomeDir()
	return project.Find(project.Options{
		Dir: cwd, Getenv: os.Getenv, Home: home,
		ShippedProviders: providers.Definitions(),
		ShippedPipelines: pipelines.Definitions(),
	})
}

// loadConfig loads the configuration and prints its warnings once.
func loadConfig(e *env, p *project.Project) error {
	_, warns, err := p.Config()
	for _, w := range warns {
		e.ui.warnf("%s", w)
	}
	return err
}

// self is the path of this binary, which built-in providers run as.
func self() string {
	exe, err := os.Executable()
	if err != nil {
		return "prosewash"
	}
	return exe
}

// terminalAsk returns a yes/no prompt on the controlling terminal, or nil
// when standard input is not a terminal or the process runs under an agent
// CLI (its environment markers or an ancestor): an agent running us through
// a pipe, or through a pty it drives, can never answer for the user.
func terminalAsk(e *env) func(string) bool {
	f, ok := e.stdin.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil
	}
	if e.who().CheckPerson() != nil {
		return nil
	}
	r := bufio.NewReader(f)
	return func(q string) bool {
		fmt.Fprintf(e.stderr, "prosewash: %s [y/N] ", q)
		line, _ := r.ReadString('\n')
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes"
	}
}
