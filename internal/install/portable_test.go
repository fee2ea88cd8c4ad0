package install

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/hooktest"
	"github.com/prosewash/prosewash/internal/testtool"
)

func TestMain(m *testing.M) { os.Exit(hooktest.Main(m)) }

// teammate installs every agent's hooks in a fresh clone with the
// prosewash binary at bin, in its own home and state, and returns the
// clone.
func teammate(t *testing.T, bin string) string {
	t.Helper()
	git := testtool.LookPath(t, "git", "apt-get install git")
	proj := t.TempDir()
	if out, err := exec.Command(git, "init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	args := []string{"install", "--mode", "manual"}
	for _, a := range Agents() {
		args = append(args, "--"+a.Name)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = proj
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "PROSEWASH_STATE_DIR=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "NO_COLOR=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	return proj
}

// committed lists what install wrote into the repository: every file a
// teammate would commit.
func committed(t *testing.T, proj string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(proj, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(proj, p)
			b, err := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = b
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Two teammates install with prosewash at two different places: every
// file install writes into the repository is byte for byte the same, and
// names no path of either binary.
func TestCommittedHookFilesAreTheSameForEveryTeammate(t *testing.T) {
	built := hooktest.Bin(t)
	var bins []string
	for _, dir := range []string{filepath.Join(t.TempDir(), "ann", "bin"), filepath.Join(t.TempDir(), "bob", "go", "bin")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(built)
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(dir, "prosewash")
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		bins = append(bins, bin)
	}
	ann, bob := committed(t, teammate(t, bins[0])), committed(t, teammate(t, bins[1]))
	for _, a := range Agents() {
		if _, ok := ann[a.File()]; !ok {
			t.Errorf("install wrote no %s", a.File())
		}
	}
	if len(ann) != len(bob) {
		t.Errorf("ann's clone has %d files, bob's %d", len(ann), len(bob))
	}
	for rel, b := range ann {
		if !bytes.Equal(b, bob[rel]) {
			t.Errorf("%s differs between the two installs:\n%s\n---\n%s", rel, b, bob[rel])
		}
		for _, bin := range bins {
			if bytes.Contains(b, []byte(filepath.Dir(bin))) {
				t.Errorf("%s names the installing binary's directory %s", rel, filepath.Dir(bin))
			}
		}
	}
}

// hookCommands lists every command of a platform's committed file.
func hookCommands(t *testing.T, a Agent, data []byte) []string {
	t.Helper()
	var doc struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", a.File(), err)
	}
	var out []string
	for _, entries := range doc.Hooks {
		for _, e := range entries {
			var g struct {
				Hooks []json.RawMessage `json:"hooks"`
			}
			hs := []json.RawMessage{e}
			if json.Unmarshal(e, &g) == nil && g.Hooks != nil {
				hs = g.Hooks
			}
			for _, h := range hs {
				if c := handlerCommand(h); c != "" {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// Every command a committed file runs, with prosewash missing from PATH,
// exits 0 with one line on standard error and the platform's no-opinion
// answer on standard output (nothing, or {}); with prosewash on PATH it
// reaches prosewash's hook.
func TestCommittedHooksFailOpenWithoutTheBinary(t *testing.T) {
	sh := testtool.LookPath(t, "sh", "a POSIX shell runs the agents' hook commands")
	built := hooktest.Bin(t)
	proj := teammate(t, built)
	files := committed(t, proj)
	for _, a := range hookAgents() { // a plugin fails open itself: TestE2EOpencodeWithoutProsewashFailsOpen
		cmds := hookCommands(t, a, files[a.File()])
		if len(cmds) == 0 {
			t.Fatalf("%s: no hook commands", a.File())
		}
		wantOut := ""
		if a.NoOpinion != "" {
			wantOut = a.NoOpinion + "\n"
		}
		for _, c := range cmds {
			for _, path := range []string{"/usr/bin:/bin", filepath.Dir(built) + ":/usr/bin:/bin"} {
				cmd := exec.Command(sh, "-c", c)
				cmd.Dir = proj
				cmd.Env = []string{"PATH=" + path, "HOME=" + t.TempDir(), "PROSEWASH_STATE_DIR=" + t.TempDir()}
				cmd.Stdin = strings.NewReader("")
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				if err != nil {
					t.Errorf("%s %q with PATH=%s: %v (stderr %q)", a.Name, c, path, err, errb.String())
					continue
				}
				if !strings.Contains(path, filepath.Dir(built)) {
					if out.String() != wantOut || strings.Count(errb.String(), "\n") != 1 || !strings.HasPrefix(errb.String(), "prosewash: not found on PATH; ") {
						t.Errorf("%s %q without prosewash: stdout %q stderr %q, want %q and one line", a.Name, c, out.String(), errb.String(), wantOut)
					}
					continue
				}
				// With prosewash: the empty payload fails open in the
				// platform's form, which names it.
				if !strings.Contains(out.String()+errb.String(), "hook skipped: empty hook input") {
					t.Errorf("%s %q with prosewash: stdout %q stderr %q, want the fail-open answer", a.Name, c, out.String(), errb.String())
				}
			}
		}
	}
}

// The Claude Code plugin's manifest (hooks/hooks.json, where the plugin
// loader reads it) holds exactly the hooks install writes into
// .claude/settings.json.
func TestPluginManifestMatchesTheTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := parseObject(b)
	if err != nil {
		t.Fatalf("hooks/hooks.json: %v", err)
	}
	got, _ := manifest.get("hooks")
	a, _ := LookupAgent("claude")
	want, err := mergeSpec(object{}, a.spec(), true)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := want.get("hooks")
	if !sameJSON(got, w) {
		var pretty bytes.Buffer
		json.Indent(&pretty, w, "", "  ")
		t.Errorf("hooks/hooks.json's hooks are not the table's; want\n%s", pretty.String())
	}
}
