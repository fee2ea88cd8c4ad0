package gate

import (
	"sort"
	"strings"
	"sync"
)

// Polarity classes: what a rule word does to the words it governs. Rewording may swap one word
// of a class for another ("never" for "do not"), never one class for another.
const (
	polNot    = "not"    // negation and prohibition: never, not, no, avoid, 不要, しない
	polOnly   = "only"   // restriction: only, solely, 只, のみ, だけ
	polExcept = "except" // exception: unless, except, 除非, 以外
	polMust   = "must"   // obligation: always, must, required, 必须, 必ず
	polPrefer = "prefer" // preference: prefer, instead of, rather than, 优先, 推奨
)

// lexicon holds the word lists of the sentence reader. It is built on first use: most prosewash
// processes (a hook recording a path) never read a sentence.
type lexicon struct {
	// marker maps a lowercased word to its polarity class.
	marker map[string]string
	// marker2 maps two lowercased words joined by a space ("do not") to a class; checked first.
	marker2 map[string]string
	// omission are the prohibition markers that are verbs of leaving something out (skip, avoid,
	// omit, exclude): negated ("never skip"), they make an obligation.
	omission map[string]bool
	// cjk are the polarity markers of Chinese and Japanese text, longest first so "不得不" (must)
	// is read before "不" (not) and "なければならない" (must) before "ない" (not).
	cjk []cjkMarker
	// cjkNotMarker are words holding a marker's characters without its meaning (不同 different,
	// 少ない few), masked before markers are looked for.
	cjkNotMarker []string
	// stop are function words: never content words of a rule, never names.
	stop map[string]bool
	// emphasis are capitalised or upper-case words that are emphasis or labels, not names.
	emphasis map[string]bool
	// tools are tool, language and format names that are names in any case and position.
	tools map[string]bool
	// useVerbs introduce a named value: "use X", "prefer X", "install X".
	useVerbs map[string]bool
	// joiner maps a word or two-word sequence joining an ordered pair to its direction: +1 when
	// the first operand is the one chosen ("A over B", "A instead of B"), -1 when the second is
	// ("A ではなく B").
	joiner map[string]int
	// binder are the words that bind a code span to the one after it ("`a` in `b`").
	binder map[string]bool
	// abbrev are abbreviations whose full stop ends no sentence.
	abbrev map[string]bool
	// units maps a unit word or symbol (lowercased unless case matters) to its normal form.
	units map[string]string
	// unitsCase maps unit symbols whose case matters (MB, Mb, M).
	unitsCase map[string]string
}

type cjkMarker struct {
	text, class string
	// clauseStart: only a marker at the start of a clause (别 don't, but 特别 especially).
	clauseStart bool
}

var lex = sync.OnceValue(func() *lexicon {
	l := &lexicon{
		marker:    map[string]string{},
		marker2:   map[string]string{},
		stop:      set(stopText),
		omission:  phrases("skip skips skipped skipping omit omits omitted omitting exclude excludes excluded avoid avoids avoided avoiding leave_out leaves_out left_out leaving_out"),
		emphasis:  set(emphasisText),
		tools:     set(toolText),
		useVerbs:  set(useVerbText),
		abbrev:    set("e.g i.e etc vs cf al approx incl esp fig no nr mr mrs dr st"),
		binder:    set("in inside within into"),
		units:     map[string]string{},
		unitsCase: map[string]string{},
		joiner: map[string]int{
			"over": 1, "than": 1, "vs": 1, "vs.": 1, "versus": 1, "not": 1, "never": 1,
			"instead of": 1, "rather than": 1, "in place of": 1, "over using": 1,
			"favor of": -1, "favour of": -1, // "X is deprecated in favor of Y"
			// Sequence: "`db` comes after `self`" puts `self` first (nearest operands only).
			"before": 1, "after": -1,
			"而不是": 1, "而非": 1, "优先于": 1, "胜过": 1, "而不用": 1,
			"ではなく": -1, "じゃなく": -1, "より": -1, "の代わりに": -1,
		},
	}
	for class, words := range map[string]string{
		polNot: "not never no none nothing nobody nowhere neither nor without avoid avoids avoided avoiding " +
			"don't dont doesn't doesnt didn't isn't aren't wasn't weren't won't can't cannot couldn't " +
			"shouldn't mustn't needn't haven't hasn't wouldn't shan't forbidden prohibited disallowed " +
			"refrain forbid prohibit skip skips skipped skipping omit omits omitted omitting exclude excludes excluded " +
			"nicht nie niemals kein keine keinen keinem keiner keines ohne verboten " +
			"jamais aucun aucune sans interdit pas " +
			"nunca jamás ningún ninguna ninguno sin prohibido",
		polOnly:   "only solely exclusively nur ausschließlich seulement uniquement solo sólo solamente únicamente",
		polExcept: "unless except excluding außer sauf excepto salvo",
		polMust: "always must required mandatory shall immer muss müssen musst stets unbedingt " +
			"toujours doit doivent obligatoire siempre debe deben obligatorio",
		polPrefer: "prefer prefers preferred preferably instead rather favor favour favors favours " +
			"bevorzugen bevorzugt lieber statt anstatt anstelle préférer préférez plutôt preferir prefiere prefiera",
	} {
		for _, w := range strings.Fields(words) {
			l.marker[w] = class
		}
	}
	for class, words := range map[string]string{
		polNot:    "do_not does_not did_not must_not should_not shall_not may_not can_not need_not will_not never_ever not_allowed not_permitted leave_out leaves_out left_out leaving_out",
		polMust:   "need_to needs_to have_to has_to make_sure is_required are_required",
		polPrefer: "instead_of rather_than in_favor in_favour",
	} {
		for _, w := range strings.Fields(words) {
			l.marker2[strings.ReplaceAll(w, "_", " ")] = class
		}
	}
	for class, words := range map[string]string{
		// Japanese obligation built on a negation must be read before the negation.
		polMust: "なければならない なければいけない なくてはならない なくてはいけない ないといけない ねばならない " +
			"必ず 常に 必須 べき 必须 务必 一定要 总是 始终 每次 不得不",
		polNot: "永远不要 永远不 绝不 从不 决不 永不 不要 不能 不得 不可 不准 不许 不必 禁止 严禁 切勿 请勿 勿 没有 没 无需 无须 避免 不 " +
			"しないで しない ないで ない ません せず ずに なく するな だめ ダメ 不要 不可",
		polOnly:   "只有 只能 仅限 仅仅 唯一 只 仅 のみ だけ しか 限定 限り 限る",
		polExcept: "除非 除了 除外 以外 除いて 除き 除く",
		polPrefer: "优先 首选 推荐 而不是 而非 優先 推奨 ではなく",
	} {
		for _, w := range strings.Fields(words) {
			l.cjk = append(l.cjk, cjkMarker{text: w, class: class})
		}
	}
	l.cjk = append(l.cjk, cjkMarker{text: "别", class: polNot, clauseStart: true})
	sort.SliceStable(l.cjk, func(i, j int) bool { return len(l.cjk[i].text) > len(l.cjk[j].text) })
	l.cjkNotMarker = strings.Fields("不同 不断 不过 不仅 不少 不久 不错 不管 不论 不如 不但 只是 只要 只需 少ない 危ない ないし 以外にも")
	for norm, words := range map[string]string{
		"ns": "ns nanosecond nanoseconds", "us": "us µs μs microsecond microseconds",
		"ms": "ms msec msecs millisecond milliseconds", "s": "s sec secs second seconds",
		"min": "m min mins minute minutes", "h": "h hr hrs hour hours", "d": "d day days",
		"w": "w wk wks week weeks", "mo": "mo month months()", "y": "y yr yrs year years",
		"B": "byte bytes", "KB": "kb kilobyte kilobytes", "MB": "mb megabyte megabytes",
		"GB": "gb gigabyte gigabytes", "TB": "tb terabyte terabytes", "PB": "pb petabyte petabytes",
		"KiB": "kib", "MiB": "mib", "GiB": "gib", "TiB": "tib", "bit": "bit bits",
		"Hz": "hz", "kHz": "khz", "MHz": "mhz", "GHz": "ghz",
		"px": "px pixel pixels", "em": "em", "rem": "rem", "pt": "pt", "vh": "vh", "vw": "vw",
		"mm": "mm", "cm": "cm", "km": "km", "kg": "kg", "g": "g",
		"k": "k thousand", "x": "x ×", "rps": "rps", "qps": "qps", "fps": "fps", "rpm": "rpm",
		"tok": "tok toks token tokens", "line": "line lines loc", "char": "char chars character characters",
		"word": "word words", "col": "col cols column columns", "%": "% percent",
		"°C": "°c", "°F": "°f", "°": "°", "ms/op": "ms/op", "ns/op": "ns/op",
	} {
		for _, w := range strings.Fields(words) {
			l.units[w] = norm
		}
	}
	// Case carries the meaning of these symbols: 25 MB is bytes, 25 Mb bits, 5M a million.
	for sym, norm := range map[string]string{"B": "B", "Mb": "Mbit", "Gb": "Gbit", "Kb": "Kbit", "M": "M", "K": "k", "G": "G", "T": "T", "W": "W", "V": "V"} {
		l.unitsCase[sym] = norm
	}
	return l
})

// phrases is set for lists whose entries may be two words joined by "_" ("leave_out").
func phrases(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[strings.ReplaceAll(w, "_", " ")] = true
	}
	return m
}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// stopText are English function words, auxiliaries and fillers: they carry no rule of their own.
const stopText = `a an the and or but if then else so as at by for from in into of on onto to with within
about above after again against all also am any are around be been before being below between both
can could did do does doing down during each either etc even ever every few further had has have
having he her here hers him his how i it its itself just let like may me might more most my
myself off once other our ours out over own per same she should some such than that their them
these they this those through thus too under until up upon us very via was we were what when
where whether which while who whom whose why will would yes you your yours e.g i.e eg ie
please make sure ensure really actually simply basically generally usually typically note
there is are be here now also use using used uses one two it's that's there's let's we're you're they're
can will would should could may might shall get gets got getting version versions however anyway`

// emphasisText are words written in capitals for emphasis, and labels; never names.
const emphasisText = `important critical warning note notes caution danger tip todo fixme hack xxx
never always only must not no yes do don't dont does should shall all any every none nothing
stop ok okay required mandatory optional deprecated new old first last next before after
and or the for you use run see also with without when then if else true false null nil
rule rules step steps example examples good bad wrong right correct incorrect avoid prefer
key keys main default valid invalid bug fix fixed done wip status`

// toolText are names of tools, languages, runtimes and formats that read as ordinary
// lowercase words in prose ("use pnpm"). Words that are also common English verbs or nouns
// (make, go, task, just) are left out: capitalised, they are names anyway.
const toolText = `npm pnpm yarn bun deno nodejs npx pnpx bunx corepack nvm volta webpack vite rollup esbuild parcel
turbopack swc babel tsc tsx ts-node tsup rspack jest vitest mocha jasmine ava playwright cypress
puppeteer selenium karma storybook eslint prettier biome oxlint stylelint tslint dprint react vue
svelte sveltekit angular preact nextjs nuxt astro gatsby qwik tailwind tailwindcss bootstrap shadcn
radix mui chakra fastify koa hono nestjs trpc prisma drizzle typeorm sequelize mongoose knex kysely
zod yup joi valibot redux zustand jotai mobx xstate rxjs lodash axios python python3 pip pip3 pipx
uv poetry pdm conda mamba pyenv virtualenv venv pytest unittest tox nox ruff isort flake8 pylint
mypy pyright pydantic django flask fastapi numpy pandas polars scipy jupyter ruby rails bundler
rspec rubocop java kotlin gradle maven mvn scala sbt groovy junit golang gofmt goimports
golangci-lint gopls staticcheck rust rustc cargo rustup clippy rustfmt tokio serde c++ cpp gcc g++
clang clang-format clang-tidy cmake ninja meson bazel autotools msbuild csharp c# dotnet nuget f#
swiftpm xcode xcodebuild cocoapods objective-c php composer laravel symfony phpunit perl lua
luarocks elixir erlang rebar3 haskell cabal ghc ocaml opam zig nim julia dart flutter rscript bash
zsh fish sh powershell pwsh cmd shellcheck shfmt git gh svn hg mercurial jj lefthook husky
pre-commit commitlint changesets semantic-release docker podman kubectl k8s kubernetes helm
kustomize terraform opentofu pulumi ansible vagrant nix nixos brew homebrew apt-get dnf yum pacman
apk flatpak chocolatey winget scoop postgres postgresql psql mysql mariadb sqlite sqlite3 redis
valkey mongodb mongo cassandra dynamodb elasticsearch opensearch kafka rabbitmq nats clickhouse
duckdb supabase firebase planetscale turso json yaml yml toml xml csv tsv markdown md html css scss
sass jsx sql graphql protobuf grpc openapi swagger jsonc json5 ndjson aws gcp azure vercel netlify
cloudflare heroku github gitlab bitbucket jira slack discord confluence claude codex gemini copilot
windsurf cline aider openai anthropic ollama typescript javascript ecmascript wasm webassembly linux
macos ubuntu debian alpine fedora centos wsl utf-8 utf8 ascii unicode graphql-codegen
openapi-generator protoc buf vim neovim emacs vscode intellij curl wget jq yq sed awk grep ripgrep
rg fd fzf tmux ssh rsync`

// useVerbText introduce the named value right after them ("use pnpm", "switch to Vite").
const useVerbText = `use using prefer install run choose pick adopt via migrate switch`
