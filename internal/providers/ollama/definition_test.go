package ollama

import (
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/validate"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
)

func shipped(t *testing.T) (*provider.Set, *pipeline.Set) {
	t.Helper()
	prov, err := provider.LoadSet(providers.Definitions(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	pipes, err := pipeline.LoadSet(pipelines.Definitions(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return prov, pipes
}

func TestShippedDefinition(t *testing.T) {
	prov, _ := shipped(t)
	d, ok := prov.Lookup("ollama-rewrite")
	if !ok {
		t.Fatal("ollama-rewrite is not shipped")
	}
	if d.Version != "builtin" || d.Endpoint != DefaultEndpoint || d.Locality != "local" || d.IO != "stdio" ||
		strings.Join(d.Command, " ") != "${prosewash} provider ollama-rewrite" || len(d.Operations) != 1 {
		t.Fatalf("definition %+v", d)
	}
	op := d.Operations[Operation]
	if op == nil || op.Role != provider.RoleTransform || op.Capability != "statistical-rewrite" || op.Regions != provider.ScopeProse ||
		op.Deterministic || op.SkipPlainASCII || strings.Join(op.Args, " ") != "--endpoint ${endpoint} --model ${model}" {
		t.Fatalf("operation %+v", op)
	}
	// The provider's own per-request timeout must fit in the engine's.
	if time.Duration(d.Timeout)*time.Second < DefaultTimeout {
		t.Fatalf("definition timeout %ds is shorter than one request (%s)", d.Timeout, DefaultTimeout)
	}
}

// TestShippedArgvReachesServe expands the shipped argv the way the engine
// does and feeds the provider's part to Serve: with a model it talks to the
// endpoint, without one it refuses with the documented message.
func TestShippedArgvReachesServe(t *testing.T) {
	prov, _ := shipped(t)
	d, _ := prov.Lookup("ollama-rewrite")
	srv := fakeollama.Start(t, fakeollama.Options{})
	for _, model := range []string{"qwen2.5:7b", ""} {
		argv, err := provider.Expand(append(append([]string{}, d.Command...), d.Operations[Operation].Args...),
			map[string]string{"prosewash": "/usr/bin/prosewash", "endpoint": srv.URL, "model": model})
		if err != nil {
			t.Fatal(err)
		}
		if argv[1] != "provider" || argv[2] != "ollama-rewrite" {
			t.Fatalf("argv %q", argv)
		}
		_, err = call(t, seams{}, argv[3:], oneRegion("Use it."))
		if model == "" {
			if err == nil || err.Error() != NoModelMessage {
				t.Fatalf("got %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if reqs := srv.ChatRequests(); len(reqs) != 1 || reqs[0].Chat.Model != model {
			t.Fatalf("requests %+v", reqs)
		}
	}
}

func TestShippedFullPipeline(t *testing.T) {
	prov, pipes := shipped(t)
	full, ok := pipes.Lookup("full")
	if !ok {
		t.Fatal("no shipped full pipeline")
	}
	r, err := pipeline.Resolve(full, prov, pipeline.Options{ExplicitTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rewrites != 1 || r.Demand != validate.Tests || len(r.Stages) != 4 {
		t.Fatalf("full: %d rewrites, demand %s, %d stages", r.Rewrites, r.Demand, len(r.Stages))
	}
	labels := make([]string, len(r.Stages))
	for i, st := range r.Stages {
		labels[i] = st.Label()
	}
	if got := strings.Join(labels, " | "); got != "unicode:inspect over any | unicode:clean over prose | ollama-rewrite:rewrite over prose | builtin syntax" {
		t.Fatalf("stages %s", got)
	}
	for _, opt := range []pipeline.Options{{}, {Automatic: true}, {ExplicitTarget: true, Automatic: true}} {
		if _, err := pipeline.Resolve(full, prov, opt); err == nil || !strings.Contains(err.Error(), "ollama-rewrite:rewrite") {
			t.Fatalf("options %+v: got %v, want a refusal naming the rewrite stage", opt, err)
		}
	}
	// safe is untouched by the new provider: no rewrite, syntax only.
	safe, _ := pipes.Lookup("safe")
	rs, err := pipeline.Resolve(safe, prov, pipeline.Options{Automatic: true})
	if err != nil || rs.Rewrites != 0 || rs.Demand != validate.Syntax {
		t.Fatalf("safe: %+v %v", rs, err)
	}
}
