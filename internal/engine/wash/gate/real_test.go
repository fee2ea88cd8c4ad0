package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
	"github.com/prosewash/prosewash/internal/testtool"
)

// realCase is a token class exercised on real text: an excerpt of a real memory file (named in
// source, see testdata/edits and the corpus index for provenance), an edit that changes meaning
// and must be blocked by a drop of class, and an honest edit that must pass. off is the single
// check whose removal lets the meaning-changing edit through with no drop at all; a zero off
// marks a class whose loss another class would also catch (said in why).
type realCase struct {
	name, source        string
	orig, lossy, honest string
	class               string
	off                 checks
	why                 string
}

var realCases = []realCase{
	{name: "polarity/english", source: "0xbutchai/workspace AGENTS.md",
		orig:   "### MEMORY.md\n\n- **ONLY load in main session** (direct chats with your human)\n- **DO NOT load in shared contexts** (Discord, group chats, sessions with other people)\n",
		lossy:  "### MEMORY.md\n\n- **ONLY load in main session** (direct chats with your human)\n- **Load in shared contexts** (Discord, group chats, sessions with other people)\n",
		honest: "### MEMORY.md\n\n- Load **only in the main session** (direct chats with your human)\n- **Never load in shared contexts** (Discord, group chats, sessions with other people)\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "polarity/japanese", source: "rurusasu/dotfiles AGENTS.md",
		orig:   "## コミット前ルール\n\n- Windows から直接 `git commit` しない。\n- `task commit -- \"message\"` を使う。\n",
		lossy:  "## コミット前ルール\n\n- Windows から直接 `git commit` する。\n- `task commit -- \"message\"` を使う。\n",
		honest: "## コミット前ルール\n\n- Windows から直接 `git commit` は禁止。\n- `task commit -- \"message\"` を使う。\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "polarity/chinese", source: "0000005/WeAgentChat AGENTS.md",
		orig:   "**使用文档**: 当需要使用 ai-elements-vue 组件时，必须先调用 `context7` 查询组件的使用方法，然后按照返回的使用方法进行实现。\n",
		lossy:  "**使用文档**: 当需要使用 ai-elements-vue 组件时，可以先调用 `context7` 查询组件的使用方法，然后按照返回的使用方法进行实现。\n",
		honest: "**使用文档**: 使用 ai-elements-vue 组件时务必先调用 `context7` 查询组件用法，再按返回的用法实现。\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "polarity/stripped-while-a-copy-survives", source: "evilmartians/lefthook AGENTS.md",
		orig:   "**Errors** — always wrap with context; never silently ignore; no panic in production paths.\n",
		lossy:  "**Errors** — always wrap with context; silently ignore when harmless; no panic in production paths.\n",
		honest: "**Errors**: always wrap with context, never ignore silently, no panic in production paths.\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}},
		why: "the sentence keeps a prohibition (no panic) in another clause; the rule's own clause lost its never"},
	{name: "units/time", source: "0xbutchai/workspace AGENTS.md",
		orig:   "- Timing can drift slightly (every ~30 min is fine, not exact)\n",
		lossy:  "- Timing can drift slightly (every ~30 h is fine, not exact)\n",
		honest: "- Timing can drift (every ~30 minutes is fine, not exact)\n",
		class:  TypeNumber, off: checks{noUnits: true}},
	{name: "units/size", source: "biomejs/biome CONTRIBUTING.md",
		orig:   "> A basic Codespace (32gb of disk space) might run out of disk space when building biome or running the full test suite.\n",
		lossy:  "> A basic Codespace (32mb of disk space) might run out of disk space when building biome or running the full test suite.\n",
		honest: "> A basic Codespace (32 GB of disk) may run out of disk space building biome or running the full test suite.\n",
		class:  TypeNumber, why: "glued unit letters were part of a number before unit words were read (32gb was never 32mb); reading them as units makes 32gb and 32 GB one size"},
	{name: "units/range", source: "0xbutchai/workspace AGENTS.md",
		orig:   "- **Calendar** - Upcoming events in next 24-48h?\n",
		lossy:  "- **Calendar** - Upcoming events in next 24h?\n",
		honest: "- **Calendar** - Upcoming events in the next 24–48 hours?\n",
		class:  TypeNumber, why: "a range read as two numbers would block the honest edit (48 hours) and catch the lossy one as a lost 48h"},
	{name: "identifier", source: "0racularGh0st/mission-control CLAUDE.md",
		orig:   "### Timeline / Activity Feed (`/timeline`) — T-001\n",
		lossy:  "### Timeline / Activity Feed (`/timeline`) — T-010\n",
		honest: "### Timeline and Activity Feed (`/timeline`), T-001\n",
		class:  TypeIdent, why: "read as a number (the -001 of T-001), the change is also caught, as number:001"},
	{name: "order", source: "astral-sh/uv AGENTS.md",
		orig:   "- PREFER `#[expect()]` over `[allow()]` if clippy must be disabled\n",
		lossy:  "- PREFER `[allow()]` over `#[expect()]` if clippy must be disabled\n",
		honest: "- If clippy must be disabled, PREFER `#[expect()]` over `[allow()]`\n",
		// The two code spans also trade subjects (prefer/over): the code binding sees it too.
		class: TypeOrder, off: checks{skipType: map[string]bool{TypeOrder: true}, noBinding: true}},
	{name: "binding-swap/code", source: "getzep/graphiti CLAUDE.md (held-out corpus)",
		orig:   "- Main project uses `typeCheckingMode = \"basic\"`, server uses `typeCheckingMode = \"standard\"`\n",
		lossy:  "- Main project uses `typeCheckingMode = \"standard\"`, server uses `typeCheckingMode = \"basic\"`\n",
		honest: "- The server uses `typeCheckingMode = \"standard\"`; the main project uses `typeCheckingMode = \"basic\"`\n",
		class:  TypeBindingSwap, off: checks{noBinding: true}},
	{name: "polarity/omission", source: "google-gemini/gemini-cli GEMINI.md (held-out corpus)",
		orig:   "For simple, non-code changes like documentation or prompting updates, skip `preflight` at the end of the task and wait for PR validation.\n",
		lossy:  "For simple, non-code changes like documentation or prompting updates, run `preflight` at the end of the task and wait for PR validation.\n",
		honest: "For non-code changes such as documentation or prompting updates, skip `preflight` and wait for PR validation.\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "polarity/leave-out", source: "astral-sh/ruff AGENTS.md (held-out corpus)",
		orig:   "Do not mention discarded alternatives, intermediate edits, or session history unless the reader needs that information.\n",
		lossy:  "Mention discarded alternatives, intermediate edits, or session history unless the reader needs that information.\n",
		honest: "Leave out discarded alternatives, intermediate edits and session history unless the reader needs that information.\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "polarity/dispensation", source: "astral-sh/ruff AGENTS.md (held-out corpus)",
		orig:   "Add the `ty` GitHub label if you have permission to do so; if you don't, however, automation should add it anyway, so there's no need to worry about it.\n",
		lossy:  "Add the `ty` GitHub label if you have permission to do so; if you don't, however, automation should add it anyway, so you need to worry about it.\n",
		honest: "Add the `ty` GitHub label if you have permission to do so; automation adds it anyway if you don't, so there is no need to worry about it.\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "polarity/dash-clause", source: "cloudflare/workers-sdk packages/wrangler/AGENTS.md (held-out corpus)",
		orig:   "- No global `fetch` — use undici's fetch\n",
		lossy:  "- Use the global `fetch` or undici's fetch\n",
		honest: "- Do not use the global `fetch`; use undici's fetch\n",
		class:  TypePolarity, off: checks{skipType: map[string]bool{TypePolarity: true}}},
	{name: "name/key-value", source: "getzep/graphiti CLAUDE.md (held-out corpus)",
		orig:   "### Code Style\n\n- Use Ruff for formatting and linting\n- Line length: 100 characters\n- Quote style: single quotes\n",
		lossy:  "### Code Style\n\n- Use Ruff for formatting and linting\n- Line length: 100 characters\n- Quote style: double quotes\n",
		honest: "### Code Style\n\n- Ruff for formatting and linting; line length 100 characters; single quotes\n",
		// single and double are antonyms too: the rule check sees the exchange as well.
		class: TypeName, off: checks{skipType: map[string]bool{TypeName: true, TypePolarity: true}}},
	{name: "name/cjk-language", source: "ant-design/ant-design AGENTS.md (held-out corpus)",
		orig:   "### 标题与内容\n\n- PR 标题始终使用英文，格式：`类型: 简短描述`\n- PR 内容默认使用英文，可根据用户语言习惯决定使用中文或英文\n",
		lossy:  "### 标题与内容\n\n- PR 标题始终使用中文，格式：`类型: 简短描述`\n- PR 内容默认使用英文，可根据用户语言习惯决定使用中文或英文\n",
		honest: "### 标题与内容\n\n- PR 标题始终用英文，格式 `类型: 简短描述`；内容默认英文，也可按用户习惯用中文\n",
		class:  TypeName, off: checks{skipType: map[string]bool{TypeName: true}}},
	{name: "order/after", source: "astral-sh/ruff AGENTS.md (held-out corpus)",
		orig:   "For methods with a `self` parameter, `db` should come immediately after `self`.\n",
		lossy:  "For methods with a `self` parameter, `db` should come immediately before `self`.\n",
		honest: "For methods with a `self` parameter, `db` comes right after `self`.\n",
		class:  TypeOrder, off: checks{skipType: map[string]bool{TypeOrder: true}}},
	{name: "name/x-for-y", source: "excalidraw/excalidraw CLAUDE.md",
		orig:   "- Build system uses esbuild for packages, Vite for the app\n",
		lossy:  "- Build system uses Vite for both\n",
		honest: "- Build: esbuild for packages, Vite for the app\n",
		class:  TypeName, off: checks{skipType: map[string]bool{TypeName: true}}},
	{name: "name/language", source: "rurusasu/dotfiles chezmoi/dot_claude/CLAUDE.md",
		orig:   "- Use Japanese for communication when the user writes in Japanese\n",
		lossy:  "- Use English for communication when the user writes in Japanese\n",
		honest: "- Answer in Japanese when the user writes in Japanese\n",
		class:  TypeName, off: checks{skipType: map[string]bool{TypeName: true}}},
	{name: "name/per-section", source: "rurusasu/dotfiles AGENTS.md",
		orig:   "## 最初に決めること\n\n3. 反映先が WSL/NixOS か Windows かを決める。\n\n## 変更先の原則\n\n- Windows パッケージ: `windows/winget/packages.json`\n",
		lossy:  "## 最初に決めること\n\n3. 反映先が WSL/NixOS か Linux かを決める。\n\n## 変更先の原則\n\n- Windows パッケージ: `windows/winget/packages.json`\n",
		honest: "## 最初に決めること\n\n3. 反映先（WSL/NixOS か Windows）を決める。\n\n## 変更先の原則\n\n- Windows パッケージ: `windows/winget/packages.json`\n",
		class:  TypeName, off: checks{noMultiset: true},
		why: "the other section's list item opens with Windows; by presence in the file it would excuse the loss"},
	{name: "frontmatter-value", source: "PatrickJS/awesome-cursorrules playwright-defect-tracking-cursorrules-prompt-file.mdc",
		orig:   "---\ndescription: \"Cursor rules for Playwright development with defect tracking.\"\nglobs: **/*\nalwaysApply: false\n---\n# Persona\n",
		lossy:  "---\ndescription: \"Cursor rules for Playwright development with defect tracking.\"\nglobs: **/*\nalwaysApply: true\n---\n# Persona\n",
		honest: "---\ndescription: 'Cursor rules for Playwright development with defect tracking.'\nglobs: **/*\nalwaysApply: false\n---\n# Persona\n",
		class:  TypeFrontValue, off: checks{skipType: map[string]bool{TypeFrontValue: true}}},
	{name: "domain", source: "excalidraw/excalidraw CLAUDE.md",
		orig:   "- **`excalidraw-app/`** - Full-featured web application (excalidraw.com) that uses the library\n",
		lossy:  "- **`excalidraw-app/`** - Full-featured web application that uses the library\n",
		honest: "- **`excalidraw-app/`** - the web application (excalidraw.com) using the library\n",
		class:  TypeLink, off: checks{noDomains: true}},
	{name: "handle", source: "0000005/WeAgentChat AGENTS.md",
		orig:   "*   **Animations:** motion-v\n*   **Diagrams:** @vue-flow\n",
		lossy:  "*   **Animations:** motion-v\n",
		honest: "*   **Animations and diagrams:** motion-v, @vue-flow\n",
		// the lossy edit removes a whole item, which removedItemPass reads as a name lost too
		class: TypeHandle, off: checks{noHandles: true, skipType: map[string]bool{TypeName: true}}},
	{name: "section-count", source: "0racularGh0st/mission-control CLAUDE.md",
		orig:   "## Tech Stack\n- **Ports:** Dev = **3003**\n\n## Coding Rules\n\n5. **Dev port is 3003** — always `npm run dev` for local work\n",
		lossy:  "## Tech Stack\n- **Ports:** Dev = **3003**\n\n## Coding Rules\n\n5. **Dev port is 3000** — always `npm run dev` for local work\n",
		honest: "## Tech Stack\n- **Ports:** Dev = **3003**\n\n## Coding Rules\n\n5. **Dev port 3003**: always `npm run dev` locally\n",
		class:  TypeNumber, off: checks{noMultiset: true}},
	{name: "substitution", source: "0xbutchai/workspace AGENTS.md",
		orig:   "**Use heartbeat when:**\n\n- Timing can drift slightly (every ~30 min is fine, not exact)\n\n**When to stay quiet (HEARTBEAT_OK):**\n\n- You just checked &lt;30 minutes ago\n",
		lossy:  "**Use heartbeat when:**\n\n- Timing can drift slightly (every ~3 min is fine, not exact)\n\n**When to stay quiet (HEARTBEAT_OK):**\n\n- You just checked &lt;30 minutes ago\n",
		honest: "**Use heartbeat when:**\n\n- Timing can drift (every ~30 min is fine, not exact)\n\n**When to stay quiet (HEARTBEAT_OK):**\n\n- You checked &lt;30 min ago\n",
		class:  TypeNumber, off: checks{noMultiset: true}},
	{name: "stray-fence/introduced", source: "evilmartians/lefthook AGENTS.md",
		orig:   "- Git, Make\n```\nmake build            # compile\nmake test             # unit tests\n```\n\n## Codebase map\n\nSee the table.\n",
		lossy:  "- Git, Make\n```\nmake build            # compile\nmake test             # unit tests\n\n## Codebase map\n\nSee the table.\n",
		honest: "- Git, Make\n```\nmake build            # compile\nmake test             # unit tests\n```\n\n## Codebase map\n\nSee the table below.\n",
		class:  TypeStrayFence, off: checks{noStray: true}},
	{name: "stray-fence/code-still-code", source: "PatrickJS/awesome-cursorrules playwright-defect-tracking-cursorrules-prompt-file.mdc",
		orig:   "# Example Defect Test\n\n```js\ntest('should report proper error', async ({ page }) => {\n      await page.goto('/login');\n      await page.click('#login-button');\n});\n",
		lossy:  "# Example Defect Test\n\n```js\ntest('should report proper error', async ({ page }) => {\n      await page.click('#login-button');\n});\n",
		honest: "# Example Defect Test\n\n```js\ntest('should report proper error', async ({ page }) => {\n      await page.goto('/login');\n      await page.click('#login-button');\n});\n\n",
		class:  TypeFenced, off: checks{noStrayCode: true},
		why: "an unclosed fence: its code-like lines stay code, so a dropped statement is a drop"},
}

// TestRealClasses: for every class, the meaning-changing edit of real text is blocked by a drop
// of that class and the honest edit passes; with the class's check off, the loss goes through.
func TestRealClasses(t *testing.T) {
	for _, c := range realCases {
		t.Run(c.name, func(t *testing.T) {
			d := Check([]byte(c.orig), []byte(c.lossy))
			if !hasClass(d, c.class) {
				t.Errorf("%s: loss not blocked by %s: %v", c.source, c.class, d)
			}
			if d := Check([]byte(c.orig), []byte(c.honest)); len(d) != 0 {
				t.Errorf("%s: honest edit blocked: %v", c.source, d)
			}
			if c.off.zero() {
				if c.why == "" {
					t.Fatal("a class without a mutation must say why")
				}
				return
			}
			if d := checkWith([]byte(c.orig), []byte(c.lossy), c.off); len(d) != 0 {
				t.Errorf("%s: with the check off the loss should go through, got %v", c.source, d)
			}
		})
	}
}

func (c checks) zero() bool {
	return len(c.skipType) == 0 && !c.noMultiset && !c.noBinding && !c.noFront && !c.noUnion && !c.noDelete &&
		!c.noMoved && !c.noUnits && !c.noDomains && !c.noHandles && !c.noStray && !c.noStrayRead && !c.noStrayCode &&
		!c.noPolarityMatch && !c.noNameWords
}

// TestStrayFenceReading: in the real CLAUDE.md whose surplus fence swallows 215 lines, honest
// edits of that prose pass and a dropped rule there is caught; read as CommonMark does (all
// code), the honest edit blocks.
func TestStrayFenceReading(t *testing.T) {
	// 0racularGh0st/mission-control CLAUDE.md, lines 64-96 (the fence at line 76 of the file).
	orig := "## Design Tokens\nThe `styles/tokens.css` file defines the mission-control color palette using oklch:\n" +
		"- `--mc-bg`: Main background (hue 235)\n- `--mc-accent-cyan`: Cyan accent (hue 220)\n```\n\n## Coding Rules\n\n" +
		"1. **No main branch pushes without PR review** (unless hotfix)\n2. **Dark-only** — never add light mode\n" +
		"5. **Dev port is 3003** — always `npm run dev` for local work\n\n## Quick Commands\n```bash\nnpm run dev          # Start dev server on port 3003\n```\n"
	honest := strings.Replace(orig, "2. **Dark-only** — never add light mode\n", "2. **Dark-only**: never add a light mode\n", 1)
	lossy := strings.Replace(orig, "2. **Dark-only** — never add light mode\n", "2. **Dark-only** — add a light mode later\n", 1)
	if d := Check([]byte(orig), []byte(honest)); len(d) != 0 {
		t.Errorf("honest edit after the stray fence blocked: %v", d)
	}
	if d := Check([]byte(orig), []byte(lossy)); !hasType(d, TypePolarity) {
		t.Errorf("flipped rule after the stray fence not blocked: %v", d)
	}
	if d := checkWith([]byte(orig), []byte(honest), checks{noStrayRead: true}); !hasType(d, TypeFenced) {
		t.Errorf("read as code, the honest edit should be a dropped code line: %v", d)
	}
	// Removing the surplus fence is an honest fix: the prose reads as prose, the code as code.
	fixed := strings.Replace(orig, "(hue 220)\n```\n", "(hue 220)\n", 1)
	if d := Check([]byte(orig), []byte(fixed)); len(d) != 0 {
		t.Errorf("fixing the stray fence blocked: %v", d)
	}
}

// restyles are honest rewrites a summary makes without changing a fact: each is applied to the
// prose of every file of the development corpus (outside code spans and quotes), and the gate
// must pass every result.
var restyles = map[string]func(string) string{
	// A hard-wrapped paragraph joined into one line is handled by rewrap below.
	"bullets":  func(s string) string { return leading(s, "* ", "- ") },
	"unbold":   func(s string) string { return strings.ReplaceAll(s, "**", "") },
	"contract": strings.NewReplacer("Do not ", "Don't ", "do not ", "don't ", "DO NOT ", "DON'T ", "cannot", "can't", "does not", "doesn't").Replace,
	"filler":   strings.NewReplacer(" really ", " ", " please ", " ", " simply ", " ", " basically ", " ", "Please ", "").Replace,
	"units": strings.NewReplacer(" seconds", "s", " second", "s", " minutes", " min", " minute", " min", " hours", "h",
		" hour", "h").Replace,
	"dashes": numberDashes,
}

// leading replaces a line's list marker.
func leading(s, from, to string) string {
	t := strings.TrimLeft(s, " ")
	if strings.HasPrefix(t, from) {
		return s[:len(s)-len(t)] + to + t[len(from):]
	}
	return s
}

// numberDashes writes a hyphen between two short numbers as an en dash (3-5 becomes 3–5).
func numberDashes(s string) string {
	b := []byte(s)
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] == '-' && i > 0 && i+1 < len(b) && isDigit(b[i-1]) && isDigit(b[i+1]) && digitRun(b, i-1, -1) <= 3 && digitRun(b, i+1, 1) <= 3 &&
			(i-1-digitRun(b, i-1, -1) < 0 || !isWordByte(b[i-1-digitRun(b, i-1, -1)]) && b[i-1-digitRun(b, i-1, -1)] != '-') {
			out.WriteString("\u2013")
			continue
		}
		out.WriteByte(b[i])
	}
	return out.String()
}

func digitRun(b []byte, i, step int) int {
	n := 0
	for ; i >= 0 && i < len(b) && isDigit(b[i]); i += step {
		n++
	}
	return n
}

// proseOnly applies f to the parts of a prose line outside code spans and double quotes.
func proseOnly(line string, f func(string) string) string {
	var out strings.Builder
	for line != "" {
		i := strings.IndexAny(line, "`\"")
		if i < 0 {
			out.WriteString(f(line))
			break
		}
		out.WriteString(f(line[:i]))
		j := strings.IndexByte(line[i+1:], line[i])
		if j < 0 {
			out.WriteString(line[i:])
			break
		}
		out.WriteString(line[i : i+2+j])
		line = line[i+2+j:]
	}
	return out.String()
}

// rewrap joins each hard-wrapped prose paragraph into one line.
func rewrap(b []byte) []byte {
	d := mdline.Parse(b)
	var out []string
	for i, l := range d.Lines {
		t := string(l.Text(b))
		tt := strings.TrimLeft(t, " ")
		if i > 0 && l.Kind == mdline.Text && d.Lines[i-1].Kind == mdline.Text && len(out) > 0 && tt != "" &&
			!strings.HasSuffix(out[len(out)-1], "  ") && !strings.ContainsAny(tt[:1], "-*+>|<") && mdline.OrdinalPrefix([]byte(tt)) == 0 {
			out[len(out)-1] += " " + tt
			continue
		}
		out = append(out, t)
	}
	return []byte(strings.Join(out, "\n"))
}

// TestHonestRestylesOfTheCorpus: restyling the prose of every real memory file of the corpus
// (wrapped paragraphs joined, bullets changed, bold removed, negations contracted, fillers
// dropped, units abbreviated, ranges written with en dashes) loses nothing the gate can see.
func TestHonestRestylesOfTheCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testtool.MemoryCorpus(t), "*"))
	if err != nil || len(files) < 30 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".tsv") || filepath.Base(f) == "README.md" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := mdline.Parse(b)
		for name, r := range restyles {
			lines := make([]string, len(d.Lines))
			for i, l := range d.Lines {
				lines[i] = string(l.Text(b))
				if l.Kind == mdline.Text || l.Kind == mdline.Heading {
					lines[i] = proseOnly(lines[i], r)
				}
			}
			if drops := Check(b, []byte(strings.Join(lines, "\n"))); len(drops) > 0 {
				t.Errorf("%s restyled (%s): %v", filepath.Base(f), name, drops)
			}
			n++
		}
		if drops := Check(b, rewrap(b)); len(drops) > 0 {
			t.Errorf("%s rewrapped: %v", filepath.Base(f), drops)
		}
		n++
	}
	t.Logf("%d honest restyles of real files, none blocked", n)
}
