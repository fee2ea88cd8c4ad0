// Package gate is the memory lane's fidelity gate: it inventories the structured tokens of a file and proves a rewrite, merge or delete lost none of them.
//
// # Token classes
//
// Read from each prose line: wikilinks (target only), dates (ISO, YYYY/MM/DD, DD-Mon-YYYY, "5
// March 2024", "March 5, 2024", and month precision "March 2024" / "2024-03", all normalised to
// ISO; ambiguous slash dates such as 01/02/2025 are kept verbatim as numbers), versions (3+
// dotted parts greedily, v-prefixed v2 and v1.2), link destinations (inline links and images,
// reference definitions, autolinks, bare URLs with trailing sentence punctuation trimmed,
// scheme-less hosts with their path such as example.chat/team, bare e-mail addresses), @handles
// and @path mentions, double-quoted spans (curly or straight, single line, whitespace-collapsed;
// not in front matter, where quotes are YAML), hyphenated identifiers with a numeric part (E-023,
// CVE-2024-1234, UTF-8), numbers, inline code spans (verbatim), fenced and indented code lines
// (whitespace-collapsed, set semantics), and the front matter's top-level keys and its values
// ("key=value", nested lines under their key; set semantics).
//
// Numbers keep their sign, currency, percent sign and unit, normalised: "30 seconds", "30 sec"
// and "30s" are one value, "25 MB" and "25mb" another, "25 GB" a third; a case-sensitive symbol
// keeps its case (Mb is bits). A dash between two numbers makes one range ("3-5", "~3–5 minutes"
// = 3-5min), never the negative number -5. Single digits count; ordered-list markers, numbered
// heading prefixes and footnote labels are masked, and a digit run glued to letters (sha256,
// x86) is not a number but a name. Digits inside dates, versions, identifiers, links and code
// spans are never numbers.
//
// Read from sentences (prose paragraphs, with wrapped lines joined), lexically and without a
// model: names, rules and ordered pairs.
//
//   - A name is a tool, language, product or version name: a word mixing letters and digits
//     (C17, ES2022), one with inner capitals (TypeScript, macOS), a short acronym (API, JSON),
//     a capitalised word in mid-sentence (Vite, German) but not in a title or a bold label, a
//     word of the tool list (pnpm, webpack), and a lowercase tool-shaped word (vue-router) after
//     "use", "prefer", "install"... or before "for". Names are keyed lowercase; on the result
//     side the plain word counts too, so "Move" surviving as "move" is no loss, but only in its
//     own section when the result keeps that section's heading.
//   - A rule (TypePolarity) is a rule word (never, not, no, avoid, without, only, unless, except,
//     always, must, required, prefer, instead of, rather than; German, French and Spanish ones;
//     in Chinese and Japanese 不要, 不能, 禁止, 必须, 只, 仅, 除非, 优先, しない, ない, 禁止,
//     必ず, のみ, だけ, 以外, 推奨...) with the content words of its clause, stemmed. A clause
//     holding only its rule word governs the clauses after it; a rule of fewer than two words
//     takes the sentence before it as its subject ("Do not re-flag." after a finding).
//   - An ordered pair joins two operands (code spans and names) by over, than, vs, not, never,
//     instead of, rather than, in favor of (and 而不是, ではなく, より): "prefer `errors.Is` over
//     `==`" is the pair errors.Is > ==. Two code spans joined by nothing but in, inside, within
//     or into are a binding: "`vi.stubEnv()` in `beforeEach`", read across line breaks.
//
// A code fence no fence closes (or whose block swallows the author's next "```bash") is a stray
// fence (mdline.Doc.StrayFences): the lines it swallows are read as the Markdown their author
// wrote, except those that look like code, which stay code lines. So an honest edit of that prose
// is not a dropped code line, and a dropped statement of real code still is. A block no bare fence
// ever closes that holds fences with an info string is a file whose author closes blocks with
// "```text": its fences are read as toggling, open and close in turn (stray.go).
//
// # Comparison
//
// The gate compares statements, not sections (stmt.go): a statement is a paragraph, a list item
// with its wrapped lines, a table row or a heading. Each statement of the original is aligned
// with the result statement or statements that carry its content (align.go): its exact copy
// (in its own section first, a statement repeated under two headings saying something under
// each), else the result statement sharing most of its content stems, both halves of a split,
// or the one statement several were merged into. An exact repeat removed within a section is
// free, and so is a whole statement removed when a statement kept unchanged anywhere in the file
// says all its facts, half its words and its rules (repeat.go); a heading's translation in
// another script in parentheses ("## 금지 패턴 (Forbidden Patterns)") is an alias, and dropping it
// is no change (heading_gloss.go). A rule cut from a statement ("| `npm run build` | … – 세션
// 중에 실행하지 마세요 |") is kept when an unchanged statement says it, as strongly, about one of
// its code spans (rule_said_again.go). Each aligned statement is then compared with its counterparts by passes (compare.go):
// its values with their units and bounds ("at most 2", "Node 20+" = "20 or later" = "≥ 20", a
// bound's "no" or "не" no rule; equivalences that are facts allowed, equiv.go: 60 s = 1 min = every minute, number words, an ordinal in digits
// and in words ("1er" = "premier", 1番目 = 最初, ordinal.go), language names across scripts,
// an alias the original defines) and its names must be there (a name said as the first part of a
// compound, "CORS" as "CORS-Konfiguration", is, and so is a compound with a part abbreviated,
// "Git-Repo" as "Git-Repository"; name_compound.go); each clause's rule keeps its
// direction and strength (must > should > may; always > usually > if needed; never > avoid;
// a rule word read in its inflected or unaccented forms too, "obligatoires", "recommande",
// "обязательны", modal_forms.go; a hedge of any language, "advisable", "conviene", "desejável", 最好,
// 바람직, written for a "must" weakens it, and a rule word alone leading a list, "DEBES:" said
// "conviene:", is compared with the bare rule word written in its place, bare_rule.go; the negations no one word says, French "ne … plus" and a
// Japanese verb's "-ず", negation_forms.go; Japanese "変更なし" said "変更しない", nominal_negation.go) and every condition it carries ("only on macOS",
// "unless ...", 除非, если; a Korean one by a word before its condition word too, 실용적인 경우,
// condition_hangul.go; a parenthesis opening with a requirement word, "(requires running
// containers)", "(erfordert Root-Rechte)", condition_paren.go; a scope right after a value,
// "95% para el sistema de tracking", scope_value.go; a German "bei" one by its noun phrase,
// "Bei Architektur-Aufgaben", condition_bei.go; a "with" phrase narrowing every case of a noun,
// "em toda função com paginação", scope_with.go; an "all" added where the original already meant all, a generic noun
// losing nothing, "each one" of a set it names, "lecture complète" said "toute", is no widening,
// scope_generic.go; an "even" case, "auch in DRY_RUN" or 緊急対応時も, is kept only as
// one, condition_even.go; a "without X", rule or not, only by a "without" or an exception,
// condition_without.go; the "or" of a condition or threshold said "and" of any language, "≥3 étapes ou
// impact" as "≥3 étapes et impact", 或 as 和, is a condition narrowed, condition_or_and.go; a "no X needed", "kein .ctx nötig", is kept by "without X",
// needless_without.go); no word is exchanged for its antonym or a state for its opposite
// (keep ↔ translate, 废弃 ↔ 可使用, 待つ ↔ そのまま); nothing a prohibition forbade is put under
// a permission of its own ("Nenhum arquivo temporário ou sensível" said "Nenhum arquivo sensível
// (temporários podem ir)", permitted.go); a substitution ("Statt B A", "A instead of B") is read
// from each side, B forbidden and A plain (preference_sides.go), and a clause a joiner opens ("，而非 FFI") joined into the
// clause before it with the same words after the joiner keeps its preference (preference_merged.go); a preference verb's own preposition joins its sides as a joiner does ("prefer
// X to Y", "préférer X aux Y", "prefira X a Y"), and a French "plutôt que" before an elided word
// ("plutôt qu'absolus") too (preference_verb.go); no hedge is put on a clause
// that is only a condition ("Si besoin, avant de …:", hedged_condition.go); what a sequence or
// a rank puts first stays first (its steps matched without the lead and tail they share,
// sequence_ends.go); what a precedence verb says wins ("A real environment variable
// still wins", "hat Vorrang", "имеет приоритет") is not put after it (precedence.go), nor
// the first operand of a clause a first-word leads behind another (sequence_first.go); the same words
// and operands paired differently are a swap (not a contrast said the other way round, "X, а не Y"
// as "не Y, а X", each word keeping its negation; contrast_regroup.go); one content word or short span exchanged for another
// in an otherwise unchanged statement is a drop ("centaines" said "dizaines", 三层 said 两层),
// unless the two are equivalent (an inflection, a prefix abbreviation, an acronym, a unit written
// short, one number, a synonym of synonymText; sentence_diff.go, sentence_subst.go); two content
// spans that trade places are a binding swap or, across a before or after word of any language
// (order_words.go), a reversed order (sentence_swap.go) unless they
// are items of one list ("lint and tests"), words moved in their own forms (a label and its value
// reordered, "Commit messages: Conventional Commits" said "Conventional Commits for commit
// messages", though "commit" shares a stem with "Commits") or two modifiers of one
// head reordered across a comma (free word order); two words of one kind that cross a word kept
// between them in opposite directions, the statement's head kept first, traded what they are
// bound to ("`a()` (full logout) or `b()` (session swap)" said the other way round, bound_swap.go);
// one item left out of a coordinated list ("A und B" said "A") is a drop unless another result
// statement states it or the list gives examples (sentence_item.go). Two list items or table
// rows whose rewrites each say words only the other said are a binding swap (row_swap.go), and
// so are two items merged into one line each of whose own words now stand after the other's
// head ("MINOR: feature", "PATCH: fix" said "MINOR = fix, PATCH = feature"; merged_swap.go). A
// statement with no counterpart was dropped: each
// of its facts and rules must be stated by another statement of the result (a rule said again
// in another script, "не tabs" as "не табы", with its numbers and code spans). Order is a fact
// only where the text makes it one: a numbered list, a first/then/before/after/priority lead.
// Set classes (code lines, front matter: a closed "---" block opening the text that holds a key
// or reads as YAML, not two thematic breaks around prose) compare presence, and a fence the result leaves stray
// beyond those the original had is a drop. A code line whose code (and step number) is kept in
// place and whose trailing comment (# // -- ; per the fence's language) is reworded has that
// comment compared as a statement (fenced_comment.go), a comment translated word for word in
// place its paths and numbers kept being reworded (fenced_translated.go); a changed command is a dropped line.
// Consecutive code lines one new code line says word for word, in order and with nothing
// added, are a list put on one line ("Types: feat (new feature), fix (bug fix)"; fenced_merge.go).
//
// A drop names the original statement, the result statement it was compared with and what
// changed ("condition \"only on macOS\" missing", "must → may", "order of `a`, `b` reversed"),
// so a person can act on it. An ordered pair stated the other way round, and a value pairing on
// a line swapped ("pass 878 / fail 0" become "pass 0 / fail 878"), are drops too.
//
// [CheckSet] gates a whole transaction: merges against the union of their sources, verbatim
// line moves between files, and deleted files whose tokens must reappear or be approved.
package gate
