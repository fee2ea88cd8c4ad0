package gate

import (
	"bytes"
	"strings"
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
