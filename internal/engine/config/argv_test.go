package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"go test ./...", []string{"go", "test", "./..."}},
		{"  go\ttest\n ./... ", []string{"go", "test", "./..."}},
		{"", nil},
		{`sh 'scripts/check it.sh'`, []string{"sh", "scripts/check it.sh"}},
		{`echo "a b" c`, []string{"echo", "a b", "c"}},
		{`echo "it's" 'say "hi"'`, []string{"echo", "it's", `say "hi"`}},
		{`echo a\ b`, []string{"echo", "a b"}},
		{`echo "a\"b" "c\\d" "e\f"`, []string{"echo", `a"b`, `c\d`, `e\f`}},
		{`echo ''`, []string{"echo", ""}},
		{`echo a''b "c"d`, []string{"echo", "ab", "cd"}},
		{"echo a \\\nb", []string{"echo", "a", "b"}},
		{`go test -run 'Test.*' ./...`, []string{"go", "test", "-run", "Test.*", "./..."}},
		{`python3 -c 'import sys; sys.exit(0)'`, []string{"python3", "-c", "import sys; sys.exit(0)"}},
		{`echo '$HOME' '|' "&&"`, []string{"echo", "$HOME", "|", "&&"}},
		{`echo a~b c#d`, []string{"echo", "a~b", "c#d"}},
		{`echo \$HOME \|`, []string{"echo", "$HOME", "|"}},
		{`prettier --check .`, []string{"prettier", "--check", "."}},
	}
	for _, tc := range tests {
		got, err := SplitWords(tc.in)
		if err != nil {
			t.Errorf("SplitWords(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitWords(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestSplitWordsRefusals(t *testing.T) {
	tests := []struct {
		in   string
		want string // substring of the error
	}{
		{"go test | tee log", `"|"`},
		{"go test || true", `"||"`},
		{"go test &", `"&"`},
		{"go vet && go test", `"&&"`},
		{"go vet; go test", `";"`},
		{"go test > log", `">"`},
		{"go test >> log", `">>"`},
		{"go test < input", `"<"`},
		{"go test 2> err", `"2>"`},
		{"go test 2>&1", `"2>&1"`},
		{"go test ./...>log", `">"`},
		{"go test 2>/dev/null", `"2>"`},
		{"(go test)", `"("`},
		{"go test $PKGS", `"$"`},
		{"go test `ls`", "\"`\""},
		{`echo "$HOME"`, `"$" inside double quotes`},
		{"gofmt -l *.go", "glob"},
		{"ls file?", "glob"},
		{"ls [ab]", "glob"},
		{"~/bin/check", "home-directory"},
		{"go test # all", "comment"},
		{"echo 'unterminated", "unterminated single quote"},
		{`echo "unterminated`, "unterminated double quote"},
		{`echo trailing\`, "lone backslash"},
	}
	for _, tc := range tests {
		got, err := SplitWords(tc.in)
		if err == nil {
			t.Errorf("SplitWords(%q) = %q; want a refusal", tc.in, got)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SplitWords(%q) error %q; want it to contain %q", tc.in, err, tc.want)
		}
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Errorf("SplitWords(%q) error is %T; want *CommandError", tc.in, err)
		}
	}
	// Operators carry the hint to wrap the command in a script.
	_, err := SplitWords("go vet && go test")
	if err == nil || !strings.Contains(err.Error(), "wrap it in a script your project owns") {
		t.Errorf("error %v lacks the hint", err)
	}
}

func TestCheckArgv(t *testing.T) {
	ok := [][]string{
		{"go", "test", "./..."},
		{"sh", "-c", "go vet && go test 2>&1 | tee log"}, // the user's explicit shell
		{"echo", "$HOME", "*.go", "a|b"},
		{"find", ".", "(", "-name", "x", ")"},
		{"git", "log", "--format=>%s"},
	}
	for _, argv := range ok {
		if err := CheckArgv(argv); err != nil {
			t.Errorf("CheckArgv(%q): %v", argv, err)
		}
	}
	for _, op := range []string{"|", "||", "&", "&&", ";", ">", ">>", "<", "2>", "2>&1", "&>", "<<"} {
		err := CheckArgv([]string{"go", "test", op, "x"})
		if err == nil || !strings.Contains(err.Error(), "wrap it in a script your project owns") {
			t.Errorf("CheckArgv with %q: %v; want a refusal with the hint", op, err)
		}
	}
	for _, w := range []string{">log", "2>/dev/null", "&>log", "1>>out", "<in"} {
		if err := CheckArgv([]string{"go", "test", w}); err == nil || !strings.Contains(err.Error(), "redirection") {
			t.Errorf("CheckArgv with %q: %v; want a redirection refusal", w, err)
		}
	}
	if CheckArgv(nil) == nil || CheckArgv([]string{""}) == nil {
		t.Error("an empty command was accepted")
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in   any
		want []string
		err  string
	}{
		{"go build ./...", []string{"go", "build", "./..."}, ""},
		{[]any{"go", "test", "./..."}, []string{"go", "test", "./..."}, ""},
		{"", nil, ""},
		{"   ", nil, ""},
		{[]any{}, nil, ""},
		{[]any{"go", int64(1)}, nil, "element 2 is a integer"},
		{int64(3), nil, "want an argv array of strings or a string, got a integer"},
		{[]any{"go", "test", "|", "tee"}, nil, "shell operator"},
		{[]any{"", "x"}, nil, "empty program"},
		{"go test && echo ok", nil, "shell operator"},
	}
	for _, tc := range tests {
		got, err := ParseCommand(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseCommand(%#v) = %q, %v; want error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCommand(%#v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

// shellQuote quotes w for a POSIX shell with single quotes.
func shellQuote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// FuzzSplitWords: any list of words, each single-quoted as a shell would
// need, splits back into the same words; and no input panics.
func FuzzSplitWords(f *testing.F) {
	f.Add("go", "test ./...", "it's")
	f.Add("", "$HOME", "a|b")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		SplitWords(a + b + c) // must not panic whatever it returns
		words := []string{a, b, c}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, shellQuote(w))
		}
		got, err := SplitWords(strings.Join(quoted, " "))
		if err != nil {
			t.Fatalf("quoted words refused: %v", err)
		}
		if !reflect.DeepEqual(got, words) {
			t.Fatalf("SplitWords round trip = %q; want %q", got, words)
		}
	})
}
