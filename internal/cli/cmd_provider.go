package cli

import (
	"errors"
	"os"

	"github.com/prosewash/prosewash/internal/providers/ollama"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

// runProvider runs a built-in provider program. The engine starts these as
// subprocesses of this same binary ("prosewash provider unicode"): providers
// are never imported by the engine, and a provider crash cannot take the
// run down with it.
func runProvider(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("provider needs an id: unicode or ollama-rewrite")
	}
	switch args[0] {
	case "unicode":
		return ucarrier.Serve(e.stdin, e.stdout, args[1:])
	case "ollama-rewrite":
		err := ollama.Serve(e.ctx, e.stdin, e.stdout, args[1:], os.Getenv)
		var refused *ollama.RefusedError
		if errors.As(err, &refused) {
			// The refusal is already in the reply; the engine reports it.
			e.ui.errorf("%v", err)
			return nil
		}
		return err
	}
	return usagef("unknown built-in provider %q", args[0])
}
