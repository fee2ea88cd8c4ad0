package provider

import (
	"reflect"
	"regexp"
	"testing"
)

// The hand-written matchers must agree with the regexps they replace.
func FuzzWordsMatchRegexps(f *testing.F) {
	id := regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,63}$`)
	vr := regexp.MustCompile(`\$\{([a-z_]+)\}`)
	ur := regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)
	for _, s := range []string{"unicode", "a.b-c_d", "-x", "${model}", "x${a}${b_c}y${}${A}$", "--url=http://127.0.0.1:1/x", "1a://b c+d://e'f", "", "ftp://a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validID(s), id.MatchString(s); got != want {
			t.Fatalf("validID(%q) = %v, regexp says %v", s, got, want)
		}
		var want []string
		for _, m := range vr.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1])
		}
		if got := varNames(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("varNames(%q) = %q, regexp says %q", s, got, want)
		}
		if got, want := replaceVars(s, func(n string) string { return "<" + n + ">" }), vr.ReplaceAllString(s, "<$1>"); got != want {
			t.Fatalf("replaceVars(%q) = %q, regexp says %q", s, got, want)
		}
		if got, want := urls(s), ur.FindAllString(s, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("urls(%q) = %q, regexp says %q", s, got, want)
		}
	})
}

func TestIsInterpreter(t *testing.T) {
	for prog, want := range map[string]bool{
		"/usr/bin/python3": true, "python3.11": true, "pypy": true, "node": true, "sh": true, "bash.exe": true, "env": true,
		"/usr/bin/cat": false, "pythonic": false, "prosewash": false, "nodes": false,
	} {
		if isInterpreter(prog) != want {
			t.Errorf("isInterpreter(%q) != %v", prog, want)
		}
	}
}
