package discover

import "path/filepath"

// ConfigDirs returns the per-user configuration directories the platforms load memory from
// (Claude Code's config dir, the Codex home, ~/.gemini, the Copilot home, the Qwen home), as given: the roots outside the
// project in which an owned, always-loaded file can live. Whether they exist is not checked.
func ConfigDirs(opts Options) []string {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	r := &run{opts: Options{Home: filepath.Clean(opts.Home), Getenv: getenv}}
	codex := getenv("CODEX_HOME")
	if !filepath.IsAbs(codex) {
		codex = filepath.Join(r.opts.Home, ".codex")
	}
	copilot := getenv("COPILOT_HOME")
	if !filepath.IsAbs(copilot) {
		copilot = filepath.Join(r.opts.Home, ".copilot")
	}
	return []string{r.claudeConfigDir(), filepath.Clean(codex), filepath.Join(r.opts.Home, ".gemini"), filepath.Clean(copilot),
		geminiQwen.configDir(r.opts.Home, getenv)}
}

// MemoryDir returns the Claude Code auto memory directory of the project
// (<config dir>/projects/<slug>/memory), as Discover looks for it first; whether it exists
// is not checked.
func MemoryDir(opts Options) string {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	r := &run{opts: Options{Home: filepath.Clean(opts.Home), Getenv: getenv}}
	return filepath.Join(r.claudeConfigDir(), "projects", Slug(filepath.Clean(opts.ProjectRoot)), "memory")
}
