// Package gate is the memory lane's fidelity gate: it inventories the structured tokens of a file and proves a rewrite, merge or delete lost none of them.
//
// # Token classes
//
// Wikilinks (target only), dates (ISO, YYYY/MM/DD, DD-Mon-YYYY, "5 March 2024", "March 5,
// 2024", and month precision "March 2024" / "2024-03", all normalised to ISO; ambiguous slash
// dates such as 01/02/2025 are kept verbatim as numbers), versions (3+ dotted parts greedily,
// v-prefixed v2 and v1.2), link destinations (inline links and images, reference definitions,
// autolinks, bare URLs with trailing sentence punctuation trimmed), double-quoted spans (curly
// or straight, single line, whitespace-collapsed), numbers, inline code spans (verbatim),
// fenced and indented code lines (whitespace-collapsed, set semantics) and top-level front
// matter keys (set semantics).
//
// Numbers keep their sign, percent sign and a short unit suffix (30s, 5ms, 44k) and drop comma
// grouping. Unlike the original, single digits count: "retry 3 times" becoming "retry 5 times"
// is a changed fact. The renumbering noise that made the original ignore them is removed at the
// source: ordered-list markers, numbered heading prefixes and footnote labels are masked, and a
// digit run glued to letters (sha256, x86, a hex hash) is an identifier, not a number. Digits
// inside dates, versions, links and code spans are never numbers.
//
// # Comparison
//
// Both texts are reduced to distinct lines (trailing whitespace ignored). For every class but
// the set classes, a value's count is its occurrences summed over distinct lines: deleting an
// exact duplicate line is free, a value left on fewer distinct lines (or fewer times on a line)
// is a drop. Beyond the original, a binding check pairs every number, date and version on a line
// with the nearest content word before it; a result line with an original line's values and
// subject words but a different pairing is a binding-swap ("pass 878 / fail 0" becoming
// "pass 0 / fail 878").
//
// [CheckSet] gates a whole transaction: merges against the union of their sources, verbatim
// line moves between files, and deleted files whose tokens must reappear or be approved.
package gate
