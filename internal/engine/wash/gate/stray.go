package gate

import (
	"bytes"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// looksLikeCode decides, for a line a stray fence swallowed, whether it is code after all (and
// keeps the strict whole-line inventory of code) or prose (and is read token by token). Lines
// that start like Markdown blocks are prose; lines with the punctuation, keywords or shapes of
// program text, shell commands or directory trees are code.
func looksLikeCode(b []byte) bool {
	t := strings.TrimSpace(string(b))
	if t == "" {
		return false
	}
	for _, p := range []string{"- ", "* ", "+ ", "> ", "#### ", "### ", "## ", "# ", "| "} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	if n := ordinalLen([]byte(t)); n > 0 {
		return false
	}
	if strings.ContainsAny(t, "\u251c\u2514\u2502\u2500") { // ├ └ │ ─: a directory tree
		return true
	}
	for _, p := range []string{"//", "/*", "*/", "#!", "$ ", "}", ")", "]", "{", "'", "\"", "<", "@@"} {
		if strings.HasPrefix(t, p) && !strings.HasPrefix(t, "<!--") {
			return true
		}
	}
	first, rest, _ := strings.Cut(t, " ")
	switch first {
	case "import", "export", "from", "const", "let", "var", "function", "func", "def", "class",
		"return", "await", "async", "package", "public", "private", "protected", "static", "struct",
		"interface", "enum", "fn", "impl", "mod", "#include", "#define", "#if", "#endif",
		"SELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP",
		"npm", "npx", "pnpm", "yarn", "bun", "bunx", "deno", "node", "go", "cargo", "pip", "pip3",
		"python", "python3", "uv", "uvx", "docker", "kubectl", "make", "cd", "echo", "curl", "git",
		"sudo", "brew", "apt", "apt-get", "mkdir", "rm", "cp", "mv", "ls", "cat", "source":
		if rest != "" || first == "}" {
			return true
		}
	case "if", "for", "while", "switch", "try", "catch", "else", "elif":
		if strings.ContainsAny(rest, "({:") {
			return true
		}
	}
	for _, end := range []string{";", "{", "(", "[", "=>", "->", "\\", "{}", "[]", "()", ");", "},", "],"} {
		if strings.HasSuffix(t, end) {
			return true
		}
	}
	for _, in := range []string{"=>", "===", "!==", "&&", "||", ":=", "();", "){", "::", " = ", "+=", "->"} {
		if strings.Contains(t, in) {
			return true
		}
	}
	// key: value lines of configuration (YAML, TOML) without spaces in the key.
	if k, _, ok := strings.Cut(t, ": "); ok && k != "" && !strings.ContainsAny(k, " *`") && k == strings.ToLower(k) && bytes.IndexByte([]byte(k), '.') < 0 {
		return strings.ContainsAny(k, "_-") || len(strings.Fields(t)) <= 3
	}
	return false
}

// A file whose author closes each code block with a fence that carries an info string
// ("```text" after the block, as after its opener) has one block that never closes: CommonMark
// (and goldmark, which renders every line after the first such fence as code) reads a closing
// fence with an info string as content, so the first block runs to the end of the file. The
// author's own reading toggles at each fence: the lines between a "```text" and the next fence
// are their Markdown. A stray block that no bare fence closes and that holds fence lines with
// an info string is read that way; one a bare fence closes keeps the other reading (its inner
// opener starts the author's next block).

// unclosedStray reports a stray block that runs to the end of the file or of its list item:
// no bare fence after it closes it.
func unclosedStray(doc *mdline.Doc, st mdline.Stray) bool {
	return st.End >= len(doc.Lines) || doc.Lines[st.End].Kind != mdline.Fence
}

// toggledKinds reads an unclosed stray block's lines as the author's toggling fences make them.
func toggledKinds(doc *mdline.Doc, st mdline.Stray, kinds []mdline.Kind, cfg checks) {
	rereadKinds(mdline.Parse(toggledText(doc, st)), st.Line-1, st.End, kinds, cfg)
}

// toggledText returns the lines from a stray block's opener to its end with every fence line
// that comes while a block is open made bare, so that parsing it closes the block there as the
// author meant; the lines keep their number.
func toggledText(doc *mdline.Doc, st mdline.Stray) []byte {
	var b bytes.Buffer
	open := false
	for i := st.Line - 1; i < st.End && i < len(doc.Lines); i++ {
		t := doc.Lines[i].Text(doc.Src)
		f, ok := fenceLine(t)
		switch {
		case ok && open:
			b.WriteString(f)
			open = false
		case ok:
			b.Write(t)
			open = true
		default:
			b.Write(t)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// fenceLine reports a line that is a backtick or tilde fence (three or more, at most three
// spaces in), and returns its bare form.
func fenceLine(t []byte) (string, bool) {
	s := strings.TrimRight(string(t), "\r")
	in := len(s) - len(strings.TrimLeft(s, " "))
	s = s[in:]
	if in > 3 || len(s) < 3 || s[0] != '`' && s[0] != '~' {
		return "", false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return "", false
	}
	return strings.Repeat(" ", in) + s[:n], true
}
