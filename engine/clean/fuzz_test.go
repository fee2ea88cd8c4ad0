package clean

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/carrier"
	"github.com/prosewash/prosewash/engine/pipeline"
	"github.com/prosewash/prosewash/engine/provider"
	"github.com/prosewash/prosewash/engine/region"
	"github.com/prosewash/prosewash/pipelines"
	"github.com/prosewash/prosewash/providers"
	"github.com/prosewash/prosewash/providers/ucarrier"
)

// inProcess runs the real unicode provider over the real JSON protocol,
// without a subprocess: a fuzz test cannot afford a process per input.
func inProcess(_ context.Context, c provider.Call, req *provider.Request) (*provider.Reply, error) {
	req.Protocol, req.Operation = provider.Protocol, c.Op.Name
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := ucarrier.Serve(bytes.NewReader(body), &out, nil); err != nil {
		return nil, &provider.RunError{Provider: c.Def.Ref(c.Op), Kind: provider.FailExit, Msg: err.Error()}
	}
	reply := &provider.Reply{}
	if err := json.Unmarshal(out.Bytes(), reply); err != nil {
		return nil, err
	}
	return reply, nil
}

func safeEngine(tb testing.TB) *Engine {
	tb.Helper()
	provs, err := provider.LoadSet(providers.Definitions(), nil, "")
	if err != nil {
		tb.Fatal(err)
	}
	pipes, err := pipeline.LoadSet(pipelines.Definitions(), nil, "")
	if err != nil {
		tb.Fatal(err)
	}
	safe, _ := pipes.Lookup("safe")
	res, err := pipeline.Resolve(safe, provs, pipeline.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return &Engine{Pipeline: res, Run: inProcess, Call: provider.Call{Vars: map[string]string{"profile": "standard"}}}
}

// loaded builds a File as Load would, without a file on disk.
func loaded(path string, data []byte) *File {
	f := &File{Path: path, Rel: path, Lang: region.Language(path, data), Orig: data, Cur: data}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		f.refuse("not text")
		return f
	}
	m, err := region.Classify(path, data)
	if err != nil {
		f.refuse("%v", err)
		return f
	}
	f.origMap = m
	return f
}

// expected computes, independently of the engine's splicing, what a clean
// of prose only must produce: every prose region cleaned on its own with
// its context, every other byte copied.
func expected(f *File) []byte {
	var out []byte
	for _, r := range f.origMap.Regions {
		if r.Kind != region.Prose {
			out = append(out, f.Orig[r.Start:r.End]...)
			continue
		}
		before, after := around(f.Orig, r.Start, r.End, 64)
		text, _ := ucarrier.Clean(before, f.Orig[r.Start:r.End], after, ucarrier.Options{Profile: carrier.Standard, Lang: f.Lang, FileStart: r.Start == 0})
		out = append(out, text...)
	}
	return out
}

var fuzzNames = [...]string{"f.md", "f.py", "f.go", "f.txt", "f.sh", "f.toml", "Dockerfile", "f.js", "f.ts", "f.tsx", "f.jsonc", "f.json", "f.yaml", "f.rs", "f.html", "f.css", "f.scss", "f.less"}

// FuzzClean proves, for arbitrary input in every classified language, that
// a clean changes prose only (the result is exactly the original with each
// prose region cleaned on its own), that it is idempotent, and that a file
// the policy finds nothing in comes back byte-identical.
func FuzzClean(f *testing.F) {
	seeds := []string{
		"# Title\u200b\n\nText with\u00a0nbsp and `code\u200bspan`.\n",
		"# comment\u200b\nx = 'lit\u200b'  # tail\u202e\n",
		"// Package p\u200b.\npackage p\n\nvar s = \"\u200b\" // c\u2060\n",
		"plain ascii\n",
		"\ufeffBOM then\u200b text\n",
		"foo  \u200b\nbar\n",
		"\u200b    indented?\n",
		"<!-- \U000E0069\U000E0067 -->\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), uint8(i))
	}
	// Seeds for the languages added later, each paired with its name in
	// fuzzNames (the second argument picks the name).
	for name, s := range map[string]string{
		"f.sh":       "#!/bin/sh\n# comment\u200b\necho '\u200b' # tail\u202e\ncat <<EOF\n# body\u200b\nEOF\n",
		"f.toml":     "# manifest\u200b\nname = \"x\u200b\" # trailing\u2060\n#\u200b:schema y\n",
		"Dockerfile": "# syntax=docker/dockerfile:1\nFROM x\n\u00a0# comment\u200b\nRUN <<EOF\n# body\u200b\nEOF\n",
		"f.js":       "// note\u200b\u2028x = '\u200b' /* b\u2060 */ // @ts-\u200bignore\n",
		"f.ts":       "let s = `a ${b /* \u200b */}` // c\u00a0d\ntype T = {}\n/ 2 // e\u200b\n",
		"f.tsx":      "const a = <div title=\"\u200b\">{/* c\u200b */}\u200b</div>; /** @param {T\u200b} x d\u200be */\n",
		"f.jsonc":    "{\n  // c\u200b\n  \"k\": \"v\u200b\", /* d\u202e */\n}\n",
		"f.json":     "{\"a\": \"\u200b\"}\n",
		"f.yaml":     "# top\u200b\nrun: |\n  echo \u200b # shell\nkey: 'v\u200b' # tail\u2060\u2028b: 1\n",
		"f.rs":       "// c\u200b\n/// doc\u202e\n/// ```\n/// x\u200b\n/// ```\nfn f() { let s = \"\u200b\"; /* b\u2066 */ }\n",
		"f.html":     "<p title=\"\u200b\">x</p><!-- a\u200b -\u200b-> b --><style>/* c\u2060 */</style>\n",
		"f.css":      "a { content: \"\u200b\"; } /* c\u200b *\u200b/ d */ /*\u200b! e */\n",
		"f.scss":     "$a: 1; // c\u200b\f b: c;\n/* #\u200b{$a} */ a { b: url(x\u200b//y) }\n",
		"f.less":     "@a: `\u200b`; // c\u200b\r d\n",
	} {
		for i, n := range fuzzNames {
			if n == name {
				f.Add([]byte(s), uint8(i))
			}
		}
	}
	eng := safeEngine(f)
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		name := fuzzNames[int(which)%len(fuzzNames)]
		// The fuzzer does not notice a hang; a watchdog turns one into a
		// crash that records the input.
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("clean of %s hangs on %q", name, data)) })
		defer watchdog.Stop()
		file := loaded(name, data)
		if !file.Alive() {
			return
		}
		eng.RunStages(context.Background(), []*File{file})
		switch file.Status {
		case Refused:
			if !bytes.Equal(file.Cur, data) {
				t.Fatal("a refused file must keep its original bytes")
			}
			return
		case Unchanged:
			if !bytes.Equal(file.Cur, data) {
				t.Fatal("unchanged but bytes differ")
			}
			if want := expected(file); !bytes.Equal(want, data) {
				t.Fatalf("engine left %q unchanged, the policy would change it to %q", data, want)
			}
			return
		}
		if want := expected(file); !bytes.Equal(file.Cur, want) {
			t.Fatalf("clean changed more than prose:\n in  %q\n got %q\nwant %q", data, file.Cur, want)
		}
		if len(ucarrier.Scan(nil, data, nil, ucarrier.Options{Profile: carrier.Standard, Lang: file.Lang, FileStart: true})) == 0 {
			t.Fatalf("a file the policy finds nothing in was changed: %q", data)
		}
		again := loaded(name, file.Cur)
		if !again.Alive() {
			t.Fatalf("the cleaned file can no longer be classified: %q", file.Cur)
		}
		eng.RunStages(context.Background(), []*File{again})
		if again.Status != Unchanged {
			t.Fatalf("not idempotent: second run %s (%s):\n first %q\nsecond %q", again.Status, again.Reason, file.Cur, again.Cur)
		}
	})
}
