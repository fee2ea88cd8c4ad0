// Package quick plans the mechanical Quick pass: it cuts only provable fat (exact duplicates within a file, blank runs, trailing whitespace, bare dead index entries, moved links) so that no reader of any file loses anything, and every plan it returns passes the fidelity gate.
//
// # What counts as a duplicate
//
// A duplicate is removed only within one file: a line in AGENTS.md is never removed because
// CLAUDE.md (which may import it) holds it too, since Codex and the other AGENTS.md readers read
// AGENTS.md alone; such a copy is reported (CrossFileDuplicate) with where the other copy is.
// Within a file, a line is deduplicated only when it is self-contained: a bullet item or a
// one-line paragraph at the margin, at least 12 runes long, not a heading, table row, rule,
// quote, reference definition, HTML or ordered item (its number is positional), with no indented
// children and no lazy continuation, and not able to turn the line above into a setext heading
// once removed. Multi-line paragraphs and tables are deduplicated only whole, as blocks bounded
// by blank lines. A copy is removed only under the same heading path as the first copy
// ("timeout: 30s" under Production and under Staging are two facts), and never inside the same
// list as the first copy: a line repeated inside one list or numbered procedure is a step,
// except a memory index entry linking a note, which an agent re-saved.
//
// # Whitespace
//
// Runs of blank lines collapse to one (CommonMark renders one and three blank lines alike
// outside code) and blank lines at the end of a file go; trailing spaces and tabs go except a
// Markdown hard break (two or more spaces ending a paragraph line followed by another). Code
// (fenced and indented), front matter and raw <pre> blocks are never touched.
//
// # Index entries and links
//
// In a memory index, a list entry that carries nothing but links to missing files and their
// titles is removed; an entry with text of its own is a note in itself and is reported
// (DeadIndexEntryKept), never removed. A relative link whose target is gone is repointed only to
// an existing Markdown file with the same name that is not the file itself, under the same link
// root as the linking file, when exactly one such file exists, and never for a per-directory
// name (README.md, AGENTS.md, CLAUDE.md, index.md...): a link to a sub-directory's guide that is
// absent from the checkout is not a link to the root one. Both carry gate approvals scoped to
// their file, listed in FilePlan.ApprovedDrops. Ambiguous and unresolvable links are flagged,
// never guessed.
//
// # Refusals and flags
//
// Read-only files (user-level memory, settings, code, JSON reached through imports), pinned
// files and files whose front matter cannot be verified, invalid UTF-8 and stale files are
// flagged or measured and never rewritten; they still name where a cross-file copy lives.
// Oversize files (over MaxFileBytes) and a memory index over the platform's load cap are flagged
// and still planned. After planning, every kept line must still be the same kind of Markdown line
// (stabilize undoes a cut that would, say, end a list and turn its continuation into code), and
// every changed file must pass the gate on its own, as `wash verify` checks it, with only its own
// approvals, then the whole plan through gate.CheckSet; a file either would block is left
// unchanged and flagged gate-refused (a planner bug, which the property tests look for).
package quick
