package ollama

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
)

const helperEnv = "PROSEWASH_OLLAMA_TEST_PROVIDER"

// TestMain lets the test binary stand in for "prosewash provider
// ollama-rewrite" when the engine's runner re-executes it.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(providerMain(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// providerMain is the wiring the CLI is expected to have: a refusal already
// written as a reply exits 0 so the engine reads it; any other error goes
// to stderr with a non-zero status.
func providerMain(args []string) int {
	if len(args) < 2 || args[0] != "provider" || args[1] != "ollama-rewrite" {
		fmt.Fprintf(os.Stderr, "prosewash: unexpected arguments %q\n", args)
		return 2
	}
	err := Serve(context.Background(), os.Stdin, os.Stdout, args[2:], os.Getenv)
	var refused *RefusedError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &refused):
		fmt.Fprintf(os.Stderr, "prosewash: %v\n", err)
		return 0
	}
	fmt.Fprintf(os.Stderr, "prosewash: %v\n", err)
	return 1
}

// TestThroughTheEngineRunner runs the shipped definition through the
// engine's subprocess runner, with proxy variables set in the provider's
// environment.
func TestThroughTheEngineRunner(t *testing.T) {
	prov, _ := shipped(t)
	def, _ := prov.Lookup("ollama-rewrite")
	srv := fakeollama.Start(t, fakeollama.Options{Models: []string{"qwen2.5:7b"}})
	proxy := fakeollama.Start(t, fakeollama.Options{})
	env := append(os.Environ(), helperEnv+"=1", "HTTP_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "ALL_PROXY="+proxy.URL, "NO_PROXY=")
	callFor := func(model string) provider.Call {
		vars := map[string]string{"prosewash": os.Args[0], "endpoint": srv.URL, "model": model}
		dir := t.TempDir()
		return provider.Call{Def: def, Op: def.Operations[Operation], Dir: dir, Env: env, Vars: vars, Bind: provider.Bind(def, vars, dir, "test")}
	}
	req := func() *provider.Request {
		return &provider.Request{Stage: 1, Files: []provider.FileRegions{
			{ID: 0, Path: "a.md", Language: "markdown", Regions: []provider.RegionPayload{
				{ID: 0, Kind: "prose", Text: "  Use it to check 2 files.\n"},
				{ID: 1, Kind: "prose", Text: "\n\t"},
			}},
			{ID: 1, Path: "b.py", Language: "python", Regions: []provider.RegionPayload{
				{ID: 0, Kind: "prose", Text: " It also helps. "},
			}},
		}}
	}
	reply, err := provider.Run(context.Background(), callFor("qwen2.5:7b"), req())
	if err != nil {
		t.Fatal(err)
	}
	got := []string{*reply.Files[0].Regions[0].Text, *reply.Files[0].Regions[1].Text, *reply.Files[1].Regions[0].Text}
	if want := []string{"  Employ it to verify 2 files.\n", "\n\t", " It additionally assists. "}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("texts %q, want %q", got, want)
	}
	if n := len(proxy.Requests()); n != 0 {
		t.Fatalf("the proxy saw %d requests", n)
	}

	_, err = provider.Run(context.Background(), callFor(""), req())
	if err == nil || err.Error() != "provider ollama-rewrite:rewrite: refused the request: "+NoModelMessage {
		t.Fatalf("no model: %v", err)
	}
	srv.SetMode(fakeollama.Garbage)
	_, err = provider.Run(context.Background(), callFor("qwen2.5:7b"), req())
	if err == nil || !strings.Contains(err.Error(), "refused the request: a.md region 0: ollama at "+srv.URL+": malformed reply") {
		t.Fatalf("garbage: %v", err)
	}
	if n := len(srv.ChatRequests()); n != 3 {
		t.Fatalf("%d chat requests, want 3 (2 served, 1 garbage)", n)
	}
}
