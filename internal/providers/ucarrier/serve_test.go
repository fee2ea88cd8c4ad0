package ucarrier

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/provider"
)

func serveJSON(t *testing.T, req any, args ...string) (*provider.Reply, error) {
	t.Helper()
	data, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Serve(bytes.NewReader(data), &out, args); err != nil {
		if out.Len() != 0 {
			t.Fatalf("Serve failed (%v) but wrote %q", err, out.String())
		}
		return nil, err
	}
	var reply provider.Reply
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&reply); err != nil {
		t.Fatalf("decode reply: %v", err)
	}
	return &reply, nil
}

func testRequest(op string) provider.Request {
	return provider.Request{
		Protocol:  provider.Protocol,
		Operation: op,
		Stage:     1,
		Files: []provider.FileRegions{
			{ID: 7, Path: "README.md", Language: "markdown", Regions: []provider.RegionPayload{
				// A BOM at byte 0 of the file is kept; a ZWSP is not.
				{ID: 1, Kind: "prose", Offset: 0, Text: "\ufeffHi\u200b there\n"},
				// The right-to-left letter is only in Before: the mark is kept.
				{ID: 2, Kind: "prose", Offset: 40, Before: "\u05e9 ", Text: "C++\u200f", After: "\n"},
				// The same text without right-to-left context loses the mark.
				{ID: 3, Kind: "prose", Offset: 60, Before: "x ", Text: "C++\u200f", After: "\n"},
				// The Thai letters are in the context on both sides.
				{ID: 4, Kind: "prose", Offset: 80, Before: "\u0e01", Text: "\u200b", After: "\u0e02"},
				// A space before a line break in After is trailing: removed.
				{ID: 5, Kind: "prose", Offset: 90, Text: "end\u00a0", After: "\nnext"},
				// A BOM not at offset 0 goes, even with empty Before.
				{ID: 6, Kind: "prose", Offset: 100, Text: "\ufeffx"},
			}},
			{ID: 8, Path: "main.go", Language: "go", Regions: []provider.RegionPayload{
				{ID: 1, Kind: "prose", Offset: 3, Before: "// ", Text: "a\u202eb\ue0a0", After: "\n"},
				// Runtime regions are never changed, only reported.
				{ID: 2, Kind: "runtime", Offset: 20, Text: "\"\u200b\""},
				{ID: 3, Kind: "prose", Offset: 30, Text: "plain ascii"},
			}},
		},
	}
}

func TestServeClean(t *testing.T) {
	reply, err := serveJSON(t, testRequest("clean"))
	if err != nil {
		t.Fatal(err)
	}
	if reply.Protocol != provider.Protocol || reply.Error != "" {
		t.Fatalf("reply header %q %q", reply.Protocol, reply.Error)
	}
	want := map[[2]int]struct {
		text    string
		actions []carrier.Action
	}{
		{7, 1}: {"\ufeffHi there\n", []carrier.Action{rm}},
		{7, 2}: {"C++\u200f", nil},
		{7, 3}: {"C++", []carrier.Action{rm}},
		{7, 4}: {"\u200b", nil},
		{7, 5}: {"end", []carrier.Action{rm}},
		{7, 6}: {"x", []carrier.Action{rm}},
		{8, 1}: {"ab\ue0a0", []carrier.Action{rm, rep}},
		{8, 2}: {"\"\u200b\"", []carrier.Action{rep}},
		{8, 3}: {"plain ascii", nil},
	}
	n := 0
	if len(reply.Files) != 2 || reply.Files[0].ID != 7 || reply.Files[1].ID != 8 {
		t.Fatalf("files %+v", reply.Files)
	}
	for _, f := range reply.Files {
		for _, r := range f.Regions {
			w, ok := want[[2]int{f.ID, r.ID}]
			if !ok {
				t.Fatalf("unexpected region %d/%d", f.ID, r.ID)
			}
			n++
			if r.Text == nil || *r.Text != w.text {
				t.Errorf("region %d/%d text = %+q, want %+q", f.ID, r.ID, deref(r.Text), w.text)
			}
			if got := actionsOf(r.Findings); !equalActions(got, w.actions) {
				t.Errorf("region %d/%d actions = %v, want %v (%+v)", f.ID, r.ID, got, w.actions, r.Findings)
			}
		}
	}
	if n != len(want) {
		t.Fatalf("got %d regions, want %d", n, len(want))
	}
}

func TestServeInspectAndStrict(t *testing.T) {
	req := testRequest("inspect")
	req.Options = map[string]string{"profile": "strict"}
	reply, err := serveJSON(t, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range reply.Files {
		for _, r := range f.Regions {
			if r.Text != nil {
				t.Errorf("inspect returned text for %d/%d", f.ID, r.ID)
			}
		}
	}
	// Strict drops the kept mark and the Thai ZWSP, still keeps the BOM at byte 0.
	got := reply.Files[0].Regions
	if len(got[0].Findings) != 1 || got[0].Findings[0].Rune != 0x200B {
		t.Errorf("region 1 findings %+v", got[0].Findings)
	}
	if len(got[1].Findings) != 1 || got[1].Findings[0].Rune != 0x200F {
		t.Errorf("region 2 findings %+v", got[1].Findings)
	}
	if len(got[3].Findings) != 1 || got[3].Findings[0].Rune != 0x200B {
		t.Errorf("region 4 findings %+v", got[3].Findings)
	}
}

func TestServeErrors(t *testing.T) {
	good := testRequest("clean")
	for _, tc := range []struct {
		name  string
		req   any
		args  []string
		input string
		want  string
	}{
		{name: "argument", req: good, args: []string{"--x"}, want: "unexpected argument"},
		{name: "protocol", req: func() any { r := good; r.Protocol = "v0"; return r }(), want: "protocol"},
		{name: "operation", req: func() any { r := good; r.Operation = "rewrite"; return r }(), want: "unknown operation"},
		{name: "option", req: func() any { r := good; r.Options = map[string]string{"lang": "x"}; return r }(), want: "unknown option"},
		{name: "profile", req: func() any { r := good; r.Options = map[string]string{"profile": "lax"}; return r }(), want: "unknown profile"},
		{name: "kind", req: func() any {
			r := testRequest("clean")
			r.Files[0].Regions[0].Kind = "code"
			return r
		}(), want: "unknown kind"},
		{name: "offset", req: func() any {
			r := testRequest("clean")
			r.Files[0].Regions[0].Offset = -1
			return r
		}(), want: "negative offset"},
		{name: "not json", input: "{", want: "decode request"},
		{name: "unknown field", input: `{"protocol":"prosewash-provider/1","operation":"clean","files":[],"extra":1}`, want: "unknown field"},
		{name: "trailing data", input: `{"protocol":"prosewash-provider/1","operation":"clean","files":[]} {}`, want: "data after the request"},
		{name: "empty", input: "", want: "decode request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in []byte
			if tc.req != nil {
				var err error
				if in, err = json.Marshal(tc.req); err != nil {
					t.Fatal(err)
				}
			} else {
				in = []byte(tc.input)
			}
			var out bytes.Buffer
			err := Serve(bytes.NewReader(in), &out, tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Serve error = %v, want one containing %q", err, tc.want)
			}
			if out.Len() != 0 {
				t.Fatalf("Serve wrote %q on error", out.String())
			}
		})
	}
}

func TestServeEmptyRequest(t *testing.T) {
	reply, err := serveJSON(t, provider.Request{Protocol: provider.Protocol, Operation: "clean"})
	if err != nil {
		t.Fatal(err)
	}
	if len(reply.Files) != 0 {
		t.Fatalf("files %+v", reply.Files)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func equalActions(a, b []carrier.Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
