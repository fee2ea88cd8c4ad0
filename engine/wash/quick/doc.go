// Package quick plans the mechanical Quick pass: it cuts only provable fat (exact duplicates, blank runs, trailing whitespace, dead index entries, moved links) and every plan it returns passes the fidelity gate.
package quick
