// Package quick plans the mechanical Quick pass: it cuts only provable fat (exact duplicates, blank runs, trailing whitespace, dead index entries, moved links) and every plan it returns passes the fidelity gate.
//
// # What counts as a duplicate
//
// A line is deduplicated only when it is self-contained: a bullet item or a one-line
// paragraph at the margin, at least 12 runes long, not a heading, table row, rule, quote,
// reference definition, HTML or ordered item (its number is positional), with no indented
// children and no lazy continuation, and not able to turn the line above into a setext heading
// once removed. Multi-line paragraphs and tables are deduplicated only whole, as blocks
// bounded by blank lines. A copy is removed only under the same heading path as the first copy:
// "timeout: 30s" under Production and under Staging are two facts. Across files, copies are
// removed only between always-loaded files of the same platform and scope: a project file's copy
// of a user-global line stays, since teammates do not load that user's file; inherited files are
// never a first copy. The first copy in load order is kept.
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
// In a memory index, a list entry whose only links point at missing files is removed; a
// relative link whose target is gone but whose file name matches exactly one file under the
// allowed roots is repointed. Both carry gate approvals scoped to their file. Ambiguous and
// unresolvable links are flagged, never guessed.
//
// # Refusals and flags
//
// Pinned files and files whose front matter cannot be verified, invalid UTF-8, oversize or stale
// files are flagged and not rewritten (they still count as first copies). A memory index over the
// platform's load cap is flagged. After planning, every kept line must still be the same kind of
// Markdown line (stabilize undoes a cut that would, say, end a list and turn its continuation
// into code), and the whole plan is run through gate.CheckSet; a file it would block is left
// unchanged and flagged gate-refused (a planner bug, which the property tests look for).
package quick
