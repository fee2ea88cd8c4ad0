package safeplan

import (
	"testing"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

// Engine is the engine check decides with: clean.Prepare for the shipped
// safe pipeline in an empty project, the unicode provider answering
// in-process with profile, and allow as the project's [clean] allow.
func Engine(tb testing.TB, profile carrier.Profile, allow []carrier.Allow) *clean.Engine {
	tb.Helper()
	home := tb.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": home}
	p, err := project.Find(project.Options{Root: tb.TempDir(), Home: home, Getenv: func(k string) string { return env[k] },
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		tb.Fatal(err)
	}
	plan, err := clean.Prepare(clean.Request{
		Project: p, Pipeline: "safe", ShippedOnly: true, Profile: string(profile), Explicit: true,
		Runner: ucarrier.InProcess, Specials: ucarrier.Specials,
	})
	if err != nil {
		tb.Fatal(err)
	}
	e := plan.Engine()
	e.Allow = allow
	return e
}
