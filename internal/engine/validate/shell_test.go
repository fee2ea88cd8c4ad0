package validate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

func TestMinimumShell(t *testing.T) {
	testtool.LookPath(t, "bash", "apt-get install bash")
	good := "#!/bin/bash\nif true; then echo ok; fi\n"
	broken := "#!/bin/bash\nif true; then echo ok;\n"
	cases := []struct {
		orig, cand, dialect string
		status              Status
		reason              string
	}{
		{good, good, "bash", OK, "parses as bash"},
		{good, broken, "bash", Failed, "does not parse as bash: line 3"},
		{broken, broken, "bash", Unchecked, "original did not parse as bash either"},
		{"echo 'a'\n", "echo 'a\n", "sh", Failed, "does not parse as sh"},
		{"@test x {\n true\n}\n", "@test x {\n true\n}\n", "bats", Unchecked, "preprocessed by bats"},
	}
	for _, c := range cases {
		res := Minimum(context.Background(), []Candidate{{Path: "run", Original: []byte(c.orig), Candidate: []byte(c.cand), Lang: "shell", Dialect: c.dialect}}, Options{})
		if res[0].Status != c.status || !strings.Contains(res[0].Reason, c.reason) {
			t.Errorf("%q -> %q (%s): got %s %q, want %s %q", c.orig, c.cand, c.dialect, res[0].Status, res[0].Reason, c.status, c.reason)
		}
		if strings.Contains(res[0].Reason, "echo") {
			t.Errorf("reason quotes the script: %q", res[0].Reason)
		}
	}
}

func TestShellCheckerChoice(t *testing.T) {
	only := func(names ...string) func(string) (string, error) {
		return func(n string) (string, error) {
			for _, m := range names {
				if m == n {
					return "/usr/bin/" + n, nil
				}
			}
			return "", errors.New("not found")
		}
	}
	cases := []struct {
		dialect string
		look    func(string) (string, error)
		argv    string
		why     string
	}{
		{"bash", only("bash"), "/usr/bin/bash --norc --noprofile -n", ""},
		{"sh", only("bash", "dash"), "/usr/bin/dash -n", ""},
		{"sh", only("bash"), "/usr/bin/bash --norc --noprofile --posix -n", ""},
		{"bash", only(), "", "bash not found on PATH: bash syntax unchecked"},
		{"zsh", only("bash"), "", "zsh not found on PATH"},
		{"mksh", only("ksh"), "/usr/bin/ksh -n", ""},
	}
	for _, c := range cases {
		argv, why := shellChecker(c.dialect, c.look)
		if strings.Join(argv, " ") != c.argv || !strings.Contains(why, c.why) {
			t.Errorf("%s: got %q %q, want %q %q", c.dialect, argv, why, c.argv, c.why)
		}
	}
}

func TestMinimumTOML(t *testing.T) {
	cases := []struct {
		orig, cand string
		status     Status
		reason     string
	}{
		{"a = 1 # c\n", "a = 1 # c\n", OK, "parses as TOML"},
		{"a = 1 # c\x07\n", "a = 1 # c\n", OK, "parses as TOML"},
		{"a = 1 # c\n", "a = 1 # c\x07\n", Failed, "does not parse as TOML: 1:"},
		{"a = 1\n", "a = 1\na = 2\n", Failed, "2:1: invalid TOML"},
		{"a = = 1\n", "a = = 1\n", Unchecked, "original did not parse"},
	}
	for _, c := range cases {
		res := Minimum(context.Background(), []Candidate{{Path: "Cargo.toml", Original: []byte(c.orig), Candidate: []byte(c.cand), Lang: "toml"}}, Options{})
		if res[0].Status != c.status || !strings.Contains(res[0].Reason, c.reason) {
			t.Errorf("%q -> %q: got %s %q, want %s %q", c.orig, c.cand, res[0].Status, res[0].Reason, c.status, c.reason)
		}
	}
	// No Dockerfile parser is linked into the binary: unchecked, never valid.
	res := Minimum(context.Background(), []Candidate{{Path: "Dockerfile", Original: []byte("FROM x\n"), Candidate: []byte("FROM x\n"), Lang: "dockerfile"}}, Options{})
	if res[0].Status != Unchecked {
		t.Errorf("Dockerfile: %s %q", res[0].Status, res[0].Reason)
	}
}
