package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/session"
	"github.com/prosewash/prosewash/internal/testkit/hooktest"
)

func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

// payloadBytes is a payload as the CLI would send it: bytes and strings as
// they are, anything else as JSON.
func payloadBytes(t testing.TB, payload any) []byte {
	t.Helper()
	switch p := payload.(type) {
	case []byte:
		return p
	case string:
		return []byte(p)
	}
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hook answers one event of the platform named name through the
// dispatcher, as 'prosewash hook NAME ARG' does.
func hook(t testing.TB, env session.Env, name, arg string, payload any) Reply {
	t.Helper()
	p, ok := Lookup(name)
	if !ok {
		t.Fatalf("no platform %q", name)
	}
	return p.Run(context.Background(), &env, arg, bytes.NewReader(payloadBytes(t, payload)))
}

// hookJSON answers one event of a platform that speaks Claude Code's
// protocol: the JSON it prints, nil for none. Those platforms never
// write to standard error.
func hookJSON(t testing.TB, env session.Env, name, arg string, payload any) *hookOutput {
	t.Helper()
	r := hook(t, env, name, arg, payload)
	if r.Stderr != "" {
		t.Errorf("%s %s wrote to standard error: %q", name, arg, r.Stderr)
	}
	if r.JSON == nil {
		return nil
	}
	return r.JSON.(*hookOutput)
}
