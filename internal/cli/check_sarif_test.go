package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// checkIn runs check with args in dir and returns standard output.
func checkIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := Main(append([]string{"check"}, args...), strings.NewReader(""), &out, &errb)
	if code != 0 && code != 1 {
		t.Fatalf("check %v: exit %d\n%s", args, code, errb.String())
	}
	return out.String()
}

func copyDemo(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	for _, n := range []string{"main.go", "notes.md", "tool.py"} {
		b, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), "testdata", "demo", n))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dst, n), b, 0o644)
	}
	return dst
}

var versionRE = regexp.MustCompile(`"(version|semanticVersion)": "[^"]*"`)

func normalizeSARIF(s string) string {
	return versionRE.ReplaceAllStringFunc(s, func(m string) string {
		if strings.Contains(m, `"2.1.0"`) {
			return m
		}
		return m[:strings.Index(m, ":")] + `: "VERSION"`
	})
}

func TestCheckSARIFGolden(t *testing.T) {
	golden, _ := filepath.Abs(filepath.Join(testtool.RepoRoot(t), "testdata", "check.sarif.golden"))
	got := normalizeSARIF(checkIn(t, copyDemo(t), "--format", "sarif", "."))
	if os.Getenv("PROSEWASH_UPDATE_GOLDEN") != "" {
		os.WriteFile(golden, []byte(got), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("SARIF differs from %s (PROSEWASH_UPDATE_GOLDEN=1 go test ./cli -run SARIFGolden rewrites it):\n%s", golden, got)
	}
}

type sarifLog struct {
	Runs []struct {
		ColumnKind string `json:"columnKind"`
		Tool       struct {
			Driver struct {
				Rules []struct {
					ID   string `json:"id"`
					Help struct {
						Text string `json:"text"`
					} `json:"help"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID              string            `json:"ruleId"`
			Level               string            `json:"level"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
			Properties          map[string]string `json:"properties"`
			Locations           []struct {
				PhysicalLocation struct {
					Region struct{ StartLine, StartColumn int } `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func parseSARIF(t *testing.T, s string) sarifLog {
	t.Helper()
	var l sarifLog
	if err := json.Unmarshal([]byte(s), &l); err != nil || len(l.Runs) != 1 {
		t.Fatalf("not one SARIF run: %v\n%s", err, s)
	}
	return l
}

// Fingerprints survive lines added above a finding; two identical
// findings on identical lines still differ.
func TestCheckSARIFFingerprintsSurviveLineShifts(t *testing.T) {
	dir := t.TempDir()
	body := "# Notes\n\nhello\u200bworld\n\nhello\u200bworld\n\n`co\u200bde`\n"
	os.WriteFile(filepath.Join(dir, "a.md"), []byte(body), 0o644)
	before := parseSARIF(t, checkIn(t, dir, "--format", "sarif", "a.md"))
	os.WriteFile(filepath.Join(dir, "a.md"), []byte("# Title\n\nA new paragraph.\n\n"+body), 0o644)
	after := parseSARIF(t, checkIn(t, dir, "--format", "sarif", "a.md"))
	b, a := before.Runs[0].Results, after.Runs[0].Results
	if len(b) != 3 || len(a) != 3 {
		t.Fatalf("results %d and %d, want 3", len(b), len(a))
	}
	seen := map[string]bool{}
	for i := range b {
		fb, fa := b[i].PartialFingerprints["prosewash/v1"], a[i].PartialFingerprints["prosewash/v1"]
		if fb == "" || fb != fa {
			t.Errorf("result %d: fingerprint %q before, %q after the shift", i, fb, fa)
		}
		if b[i].Locations[0].PhysicalLocation.Region.StartLine+4 != a[i].Locations[0].PhysicalLocation.Region.StartLine {
			t.Errorf("result %d did not move 4 lines", i)
		}
		if b[i].PartialFingerprints["primaryLocationLineHash"] == "" {
			t.Errorf("result %d has no primaryLocationLineHash", i)
		}
		if seen[fb] {
			t.Errorf("two results share fingerprint %s", fb)
		}
		seen[fb] = true
	}
	if b[0].Properties["region"] != "prose" || b[0].Properties["action"] != "remove" || b[2].Properties["region"] != "runtime" || b[2].Level == b[0].Level {
		t.Errorf("region/action/level: %+v", b)
	}
	if before.Runs[0].ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q", before.Runs[0].ColumnKind)
	}
	for _, r := range before.Runs[0].Tool.Driver.Rules {
		if r.Help.Text == "" || !strings.HasPrefix(r.ID, "prosewash/") {
			t.Errorf("rule %+v without help", r)
		}
	}
}

// The log validates against the SARIF 2.1.0 schema and the SARIF
// multitool's rules (Microsoft's validator, from npm), and a broken log
// fails the same validator.
func TestCheckSARIFValidates(t *testing.T) {
	prefix := testtool.NPM(t, "@microsoft/sarif-multitool-linux@5.7.0")
	tool := filepath.Join(prefix, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	if err := os.Chmod(tool, 0o755); err != nil {
		testtool.Missing(t, "npm", err.Error())
	}
	log := checkIn(t, copyDemo(t), "--format", "sarif", ".")
	validate := func(doc string) []string {
		dir := t.TempDir()
		in, out := filepath.Join(dir, "in.sarif"), filepath.Join(dir, "out.sarif")
		os.WriteFile(in, []byte(doc), 0o644)
		// Sarif: the specification's rules; Gh: what GitHub code scanning requires.
		cmd := exec.Command(tool, "validate", in, "-o", out, "--rule-kind", "Sarif;Gh")
		cmd.Env = append(os.Environ(), "DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
		msg, err := cmd.CombinedOutput()
		b, rerr := os.ReadFile(out)
		if rerr != nil {
			t.Fatalf("validator wrote no report: %v %v\n%s", err, rerr, msg)
		}
		var rep struct {
			Runs []struct {
				Results []struct {
					RuleID  string `json:"ruleId"`
					Level   string `json:"level"`
					Message struct {
						ID string `json:"id"`
					} `json:"message"`
				} `json:"results"`
			} `json:"runs"`
		}
		json.Unmarshal(b, &rep)
		var errs []string
		for _, r := range rep.Runs {
			for _, x := range r.Results {
				if x.Level == "error" || x.Level == "" {
					errs = append(errs, x.RuleID+" "+x.Message.ID)
				}
			}
		}
		return errs
	}
	if errs := validate(log); len(errs) > 0 {
		t.Errorf("prosewash's SARIF fails validation: %v", errs)
	}
	// File names a URI must escape, astral characters before a carrier, a
	// skipped binary file.
	dir := t.TempDir()
	for name, body := range map[string]string{"docs/q?x#y.md": "x\u200by\n", "colon:x.md": "\U0001F600\U0001F600 a\u200bb\n",
		"pct%2e%2e%2fx.md": "a\u202eb\n", "sp ace.md": "sp ace\u200b\n", "bin.dat": "\x00\xff"} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644)
	}
	if errs := validate(checkIn(t, dir, "--format", "sarif", ".")); len(errs) > 0 {
		t.Errorf("prosewash's SARIF for awkward names fails validation: %v", errs)
	}
	broken := strings.Replace(log, `"startColumn": `, `"startColumn": -`, 1)
	if errs := validate(broken); len(errs) == 0 {
		t.Errorf("the validator accepted a negative column: it proves nothing")
	}
	var doc map[string]any
	json.Unmarshal([]byte(log), &doc)
	delete(doc["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any), "locations")
	noLocation, _ := json.Marshal(doc)
	if errs := validate(string(noLocation)); !strings.Contains(strings.Join(errs, " "), "GH") {
		t.Errorf("the validator's GitHub rules did not run (results without locations passed): %v", errs)
	}
}

func TestCheckGitHubFormat(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a, b%.md"), []byte("x\u200by\n\n`\u202e`\n"), 0o644)
	out := checkIn(t, dir, "--format", "github", ".")
	want := "::warning file=a%2C b%25.md,line=1,col=2,endColumn=3,title=prosewash zero-width::U+200B ZERO WIDTH SPACE in prose: prosewash clean removes it\n" +
		"::error file=a%2C b%25.md,line=3,col=2,endColumn=3,title=prosewash bidi-control::U+202E RIGHT-TO-LEFT OVERRIDE in runtime: reported, never touched (inline code)\n"
	if out != want {
		t.Errorf("github format:\n%s\nwant\n%s", out, want)
	}
}
