package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
)

// dialLog records every address the client was about to connect to.
type dialLog struct {
	mu    sync.Mutex
	addrs []string
}

func (d *dialLog) seams() seams {
	return seams{dialing: func(a string) { d.mu.Lock(); d.addrs = append(d.addrs, a); d.mu.Unlock() }}
}

func (d *dialLog) list() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.addrs...)
}

// call runs the provider with a request and decodes its one reply.
func call(t *testing.T, s seams, args []string, req *provider.Request) (*provider.Reply, error) {
	return callTB(t, s, args, req)
}

func callB(b *testing.B, args []string, req *provider.Request) (*provider.Reply, error) {
	return callTB(b, seams{}, args, req)
}

func callTB(t testing.TB, s seams, args []string, req *provider.Request) (*provider.Reply, error) {
	t.Helper()
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	serr := serve(context.Background(), bytes.NewReader(in), &out, args, s)
	reply := &provider.Reply{}
	dec := json.NewDecoder(&out)
	if err := dec.Decode(reply); err != nil {
		t.Fatalf("provider wrote no reply (serve error %v): %v", serr, err)
	}
	if dec.More() {
		t.Fatal("provider wrote more than one JSON document")
	}
	if reply.Protocol != provider.Protocol {
		t.Fatalf("reply protocol %q", reply.Protocol)
	}
	if (serr == nil) != (reply.Error == "") {
		t.Fatalf("serve returned %v but the reply error is %q", serr, reply.Error)
	}
	var refused *RefusedError
	if serr != nil && (serr.Error() != reply.Error || !errors.As(serr, &refused)) {
		t.Fatalf("serve returned %q (%T), reply says %q", serr, serr, reply.Error)
	}
	return reply, serr
}

func oneRegion(text string) *provider.Request {
	return &provider.Request{Protocol: provider.Protocol, Operation: "rewrite", Stage: 2, Files: []provider.FileRegions{{
		ID: 0, Path: "doc.md", Language: "markdown",
		Regions: []provider.RegionPayload{{ID: 0, Kind: "prose", Offset: 0, Text: text}},
	}}}
}

func args(endpoint string, extra ...string) []string {
	return append([]string{"--endpoint", endpoint, "--model", "llama3.2:3b"}, extra...)
}

// The texts are written out by hand: the expected paraphrases do not come
// from the fake's own code.
const (
	multi     = "Use the `Parse()` helper to check 12 files quickly,\nbecause it returns errors early; see https://example.com/docs for more details about it."
	multiPara = "Employ the `Parse()` helper to verify 12 files rapidly,\nsince it yields errors early; see https://example.com/docs for more details regarding it."
	single    = "Use the `Parse()` helper to check 12 files quickly, because it returns errors early and shows them."
)

func TestServeModes(t *testing.T) {
	tests := []struct {
		mode    fakeollama.Mode
		text    string
		want    string // new text ("" = unchanged)
		finding string // substring of the refusal finding
		err     string // substring of the whole-request refusal
	}{
		{fakeollama.Paraphrase, multi, multiPara, "", ""},
		{fakeollama.Echo, multi, "", "", ""},
		{fakeollama.Wrapper, multi, multiPara, "", ""},
		{fakeollama.Quoted, multi, multiPara, "", ""},
		{fakeollama.Think, multi, multiPara, "", ""},
		{fakeollama.Truncated, multi, "", "truncated", ""},
		{fakeollama.NotDone, multi, "", "truncated", ""},
		{fakeollama.Empty, multi, "", "no text", ""},
		{fakeollama.DropNumber, single, "", "dropped 1 number", ""},
		{fakeollama.Ramble, single, "", "length drifted", ""},
		{fakeollama.JoinLines, multi, "", "line structure (1 lines, want 2)", ""},
		{fakeollama.Garbage, multi, "", "", "malformed reply (not one JSON object): invalid JSON at byte"},
		{fakeollama.Streamed, multi, "", "", "more than one JSON object"},
		{fakeollama.Huge, multi, "", "", "reply larger than 16777216 bytes"},
		{fakeollama.Fail, multi, "", "", "ollama answered 500 Internal Server Error: llama runner process has terminated"},
		{fakeollama.RedirectRemote, multi, "", "", "redirect refused"},
	}
	srv := fakeollama.Start(t, fakeollama.Options{})
	for _, tc := range tests {
		t.Run(string(tc.mode), func(t *testing.T) {
			srv.SetMode(tc.mode)
			before := len(srv.ChatRequests())
			reply, err := call(t, seams{}, args(srv.URL), oneRegion(tc.text))
			if n := len(srv.ChatRequests()) - before; n != 1 {
				t.Fatalf("%d chat requests, want 1", n)
			}
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, want a refusal containing %q", err, tc.err)
				}
				if strings.Contains(err.Error(), "Parse") {
					t.Fatalf("refusal quotes the text: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rr := reply.Files[0].Regions[0]
			want := tc.want
			if want == "" {
				want = tc.text
			}
			if rr.Text == nil || *rr.Text != want {
				t.Fatalf("text %v, want %q", rr.Text, want)
			}
			if tc.finding == "" {
				if len(rr.Findings) != 0 {
					t.Fatalf("unexpected findings %+v", rr.Findings)
				}
				return
			}
			if len(rr.Findings) != 1 {
				t.Fatalf("findings %+v, want one", rr.Findings)
			}
			fd := rr.Findings[0]
			if !strings.Contains(fd.Name, tc.finding) || fd.Class != FindingClass || fd.Offset != 0 || fd.Len != len(tc.text) || fd.Action != "report" {
				t.Fatalf("finding %+v, want class %s over the region naming %q", fd, FindingClass, tc.finding)
			}
		})
	}
}

func TestServeSendsModelTemperatureAndNoStream(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{Models: []string{"llama3.2:3b"}})
	for _, tc := range []struct {
		extra []string
		temp  float64
	}{
		{nil, 0.3},
		{[]string{"--temperature", "0.7"}, 0.7},
		{[]string{"--temperature=0"}, 0},
	} {
		before := len(srv.ChatRequests())
		if _, err := call(t, seams{}, args(srv.URL, tc.extra...), oneRegion("  Use it.  ")); err != nil {
			t.Fatal(err)
		}
		reqs := srv.ChatRequests()[before:]
		if len(reqs) != 1 {
			t.Fatalf("%d chat requests", len(reqs))
		}
		r := reqs[0]
		c := r.Chat
		if c.Model != "llama3.2:3b" || c.Stream == nil || *c.Stream || len(c.Messages) != 1 || c.Messages[0].Role != "user" {
			t.Fatalf("request %+v", c)
		}
		if c.Messages[0].Content != Prompt("Use it.") {
			t.Fatalf("prompt %q", c.Messages[0].Content)
		}
		if got, ok := c.Options["temperature"].(float64); !ok || got != tc.temp || len(c.Options) != 1 {
			t.Fatalf("options %v, want temperature %v only", c.Options, tc.temp)
		}
		if r.Method != "POST" || r.RequestURI != "/api/chat" || r.Host != strings.TrimPrefix(srv.URL, "http://") || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("HTTP request %s %s host %s type %s", r.Method, r.RequestURI, r.Host, r.Header.Get("Content-Type"))
		}
	}
	// A model the server does not have: Ollama's 404 is a refusal naming it.
	_, err := call(t, seams{}, []string{"--endpoint", srv.URL, "--model", "nope:1b"}, oneRegion("Use it."))
	if err == nil || !strings.Contains(err.Error(), `404 Not Found: model "nope:1b" not found`) {
		t.Fatalf("got %v", err)
	}
}

func TestServeEndToEnd(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	long := "[[fake:truncated]] The cache keeps the last answer for each key so a repeated question costs nothing at all."
	req := &provider.Request{Protocol: provider.Protocol, Operation: "rewrite", Stage: 2, Files: []provider.FileRegions{
		{ID: 0, Path: "README.md", Language: "markdown", Regions: []provider.RegionPayload{
			{ID: 0, Kind: "prose", Offset: 10, Before: "# Title\n\n", Text: "  Use the tool to check 3 files quickly.\n", After: "\n```"},
			{ID: 1, Kind: "prose", Offset: 60, Text: "   \n\t"},
			{ID: 2, Kind: "prose", Offset: 70, Text: "---- 42 ----"},
			{ID: 3, Kind: "prose", Offset: 90, Text: "\n\nThe API returns `Count()` and shows https://example.com/a?b=1.\n  It also helps.  \n"},
			{ID: 4, Kind: "prose", Offset: 200, Text: ""},
		}},
		{ID: 1, Path: "tool.py", Language: "python", Regions: []provider.RegionPayload{
			{ID: 0, Kind: "prose", Offset: 2, Text: " Set [[fake:drop-number]] the limit to 42 because it helps. "},
			{ID: 1, Kind: "prose", Offset: 80, Text: long},
			{ID: 2, Kind: "prose", Offset: 300, Text: "[[fake:wrapper]] Use it.\r\n"},
		}},
		{ID: 2, Path: "empty.txt", Language: "text"},
	}}
	reply, err := call(t, seams{}, args(srv.URL), req)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]struct {
		text    string
		finding string
	}{
		{
			{"  Employ the tool to verify 3 files rapidly.\n", ""},
			{"   \n\t", ""},
			{"---- 42 ----", ""},
			{"\n\nThe API yields `Count()` and displays https://example.com/a?b=1.\n  It additionally assists.  \n", ""},
			{"", ""},
		},
		{
			{" Set [[fake:drop-number]] the limit to 42 because it helps. ", "dropped 1 number"},
			{long, "truncated"},
			{"[[fake:wrapper]] Employ it.\r\n", ""},
		},
		{},
	}
	if len(reply.Files) != len(want) {
		t.Fatalf("%d files in reply", len(reply.Files))
	}
	for i, fr := range reply.Files {
		if fr.ID != req.Files[i].ID || len(fr.Regions) != len(want[i]) {
			t.Fatalf("file %d: id %d with %d regions", i, fr.ID, len(fr.Regions))
		}
		for j, rr := range fr.Regions {
			w := want[i][j]
			if rr.ID != req.Files[i].Regions[j].ID || rr.Text == nil || *rr.Text != w.text {
				t.Fatalf("file %d region %d: id %d text %q, want %q", i, j, rr.ID, deref(rr.Text), w.text)
			}
			switch {
			case w.finding == "" && len(rr.Findings) != 0:
				t.Fatalf("file %d region %d: unexpected findings %+v", i, j, rr.Findings)
			case w.finding != "" && (len(rr.Findings) != 1 || !strings.Contains(rr.Findings[0].Name, w.finding)):
				t.Fatalf("file %d region %d: findings %+v, want %q", i, j, rr.Findings, w.finding)
			}
		}
	}
	// Regions without letters were never sent; each of the others once.
	reqs := srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d chat requests, want 5 (regions with letters)", len(reqs))
	}
	for _, r := range reqs {
		p := r.Chat.Messages[0].Content
		if strings.Contains(p, "# Title") || strings.Contains(p, "```") || strings.Contains(p, "42 ----") {
			t.Fatalf("context or a letterless region reached the model: %q", p)
		}
		if fakeollama.PromptText(p) != strings.TrimSpace(fakeollama.PromptText(p)) {
			t.Fatalf("region edges were sent: %q", p)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestServeRefusesBadInvocations(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	valid := oneRegion("Use it.")
	tests := []struct {
		name string
		args []string
		req  *provider.Request
		want string
	}{
		{"no model flag", []string{"--endpoint", srv.URL}, valid, NoModelMessage},
		{"empty model", []string{"--endpoint", srv.URL, "--model", ""}, valid, NoModelMessage},
		{"blank model", []string{"--endpoint", srv.URL, "--model", "  "}, valid, NoModelMessage},
		{"temperature too high", args(srv.URL, "--temperature", "1.5"), valid, "--temperature must be in [0, 1], got 1.5"},
		{"temperature negative", args(srv.URL, "--temperature", "-0.1"), valid, "--temperature must be in [0, 1]"},
		{"temperature NaN", args(srv.URL, "--temperature", "NaN"), valid, "--temperature must be in [0, 1]"},
		{"timeout zero", args(srv.URL, "--timeout", "0"), valid, "--timeout must be in (0, 3600]"},
		{"unknown flag", args(srv.URL, "--allow-remote"), valid, "flag provided but not defined: -allow-remote"},
		{"stray argument", args(srv.URL, "extra"), valid, `unexpected argument "extra"`},
		{"wrong protocol", args(srv.URL), &provider.Request{Protocol: "prosewash-provider/0", Operation: "rewrite"}, `request speaks protocol "prosewash-provider/0"`},
		{"wrong operation", args(srv.URL), &provider.Request{Protocol: provider.Protocol, Operation: "clean"}, `unknown operation "clean"`},
		{"runtime region", args(srv.URL), &provider.Request{Protocol: provider.Protocol, Operation: "rewrite", Files: []provider.FileRegions{{Path: "a.py", Regions: []provider.RegionPayload{{ID: 3, Kind: "runtime", Text: "x = 1"}}}}}, "a.py region 3 is runtime"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := call(t, seams{}, tc.args, tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("the server saw %d requests from refused invocations", n)
	}
	// The missing-model refusal is exactly the documented sentence.
	_, err := call(t, seams{}, []string{"--endpoint", srv.URL, "--model", ""}, valid)
	if err.Error() != "no model configured: set [clean] rewrite_model in .prosewash.toml" {
		t.Fatalf("got %q", err)
	}
}

func TestServeMalformedStdin(t *testing.T) {
	for _, in := range []string{"", "{", `{"protocol":"prosewash-provider/1","operation":"rewrite","files":[],"extra":1}`} {
		var out bytes.Buffer
		err := Serve(context.Background(), strings.NewReader(in), &out, args(DefaultEndpoint), nil)
		if err == nil || !strings.Contains(err.Error(), "read request") {
			t.Fatalf("stdin %q: got %v", in, err)
		}
		var r provider.Reply
		if json.Unmarshal(out.Bytes(), &r) != nil || r.Error != err.Error() {
			t.Fatalf("stdin %q: reply %q", in, out.String())
		}
	}
}

func TestServeTimeout(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{Mode: fakeollama.Slow, Delay: time.Minute})
	start := time.Now()
	_, err := call(t, seams{}, args(srv.URL, "--timeout", "0.5"), oneRegion("Use it."))
	if err == nil || !strings.Contains(err.Error(), "timed out after 500ms") {
		t.Fatalf("got %v", err)
	}
	// Generous bound: the point is that the one-minute reply was not awaited.
	if el := time.Since(start); el > 20*time.Second {
		t.Fatalf("took %s", el)
	}
}

func TestServeCancelled(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{Mode: fakeollama.Slow, Delay: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	in, _ := json.Marshal(oneRegion("Use it."))
	go func() {
		for len(srv.ChatRequests()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	var out bytes.Buffer
	err := Serve(ctx, bytes.NewReader(in), &out, args(srv.URL), nil)
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("got %v", err)
	}
}

// failReader fails the test if the probe reads a request.
type failReader struct{ t *testing.T }

func (r failReader) Read([]byte) (int, error) {
	r.t.Error("probe read stdin")
	return 0, io.EOF
}

func TestProbe(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{Models: []string{"qwen2.5:7b", "llama3.2:latest"}})
	closed := fakeollama.Start(t, fakeollama.Options{})
	closed.Close()
	tests := []struct {
		args []string
		out  string
		err  string
	}{
		{[]string{"--probe", "--endpoint", srv.URL, "--model", "qwen2.5:7b"}, "ollama " + fakeollama.Version + " at " + srv.URL + " has model qwen2.5:7b\n", ""},
		{[]string{"--endpoint", srv.URL, "--model", "llama3.2", "--probe"}, "ollama " + fakeollama.Version + " at " + srv.URL + " has model llama3.2\n", ""},
		{[]string{"--probe", "--endpoint", srv.URL, "--model", "llama3.2:1b"}, "", `model "llama3.2:1b" is not available in ollama ` + fakeollama.Version + " (run: ollama pull llama3.2:1b)"},
		{[]string{"--probe", "--endpoint", srv.URL, "--model", "qwen2.5"}, "", `model "qwen2.5" is not available`},
		{[]string{"--probe", "--endpoint", srv.URL}, "", NoModelMessage},
		{[]string{"--probe", "--endpoint", "http://10.0.0.1:11434", "--model", "m"}, "", "endpoint refused"},
		{[]string{"--probe", "--endpoint", closed.URL, "--model", "m"}, "", "connection refused: is Ollama running?"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		err := Serve(context.Background(), failReader{t}, &out, tc.args, nil)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || out.Len() != 0 {
				t.Fatalf("%q: got %v, stdout %q; want %q", tc.args, err, out.String(), tc.err)
			}
			continue
		}
		if err != nil || out.String() != tc.out {
			t.Fatalf("%q: got %v, stdout %q; want %q", tc.args, err, out.String(), tc.out)
		}
	}
	if n := len(srv.ChatRequests()); n != 0 {
		t.Fatalf("the probe sent %d chat requests", n)
	}
}
