// Package safe builds clean's engine with the shipped safe pipeline and the built-in carrier policy called in-process: the decision "prosewash check" prints, and the engine tests drive.
package safe

import (
	"fmt"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

// Engine returns the safe pipeline's engine with the unicode provider
// answering in-process (the same requests and replies as its subprocess),
// with the given profile and [clean] allow entries.
func Engine(profile carrier.Profile, allow []carrier.Allow) (*clean.Engine, error) {
	provs, err := provider.LoadSet(providers.Definitions(), nil, "")
	if err != nil {
		return nil, err
	}
	pipes, err := pipeline.LoadSet(pipelines.Definitions(), nil, "")
	if err != nil {
		return nil, err
	}
	pl, ok := pipes.Lookup("safe")
	if !ok {
		return nil, fmt.Errorf("the shipped safe pipeline is missing")
	}
	res, err := pipeline.Resolve(pl, provs, pipeline.Options{})
	if err != nil {
		return nil, err
	}
	if profile == "" {
		profile = carrier.Standard
	}
	return &clean.Engine{
		Pipeline: res, Run: ucarrier.InProcess, Allow: allow, Silent: ucarrier.Silent,
		Call: provider.Call{Vars: map[string]string{"profile": string(profile)}},
	}, nil
}
