// Package lane runs the memory wash for one project: gauge, Quick pass, semantic plan apply, recovery bins, restore, stats and the engine side of the Claude Code hooks, all through the fidelity gate and internal/engine/txn.
//
// # Runs
//
// Every run that writes goes the same way: the gate checks the whole change set (any
// unapproved drop blocks the run before the first write and names the tokens); pinned files
// and files whose front matter cannot be verified are refused; then one all-or-nothing
// internal/engine/txn transaction spans the project root and the platform config directories the
// files live in (the Claude memory directory is outside the project). Inside the
// transaction's lock the originals are banked in a recovery bin (written, fsynced and read
// back) before the first file is swapped; a swap is a compare-and-swap on the hash the plan
// was made from, so a file changed since it was read aborts the run and every file is put
// back. After the commit the bins are swept: that is the only place a cut is ever destroyed.
//
// # Ownership
//
// The lane writes only what it owns: Markdown memory files inside the project root or the
// Claude Code memory directory (discover.Entry.Owned). User-level memory (~/.claude/CLAUDE.md,
// the Codex home, ~/.gemini), settings, code and JSON that an @import reaches are measured and
// shown, never cut, merged, repointed or deleted; every writing run checks each change against
// the files its reading owns before anything else, so a plan naming one is refused whole. A
// user-level memory file is washed only when a person names it to Quick on a terminal
// (QuickOptions.Files and Terminal).
//
// # State
//
// The band, the crossing that the end-of-turn recheck acts on, a footprint history, the last receipt,
// the files of the last gauge and the cached measurement live in <state dir>/wash/state-0.json
// and state-1.json (0600): each save rewrites the slot the previous generation does not
// occupy, and a load takes the valid slot with the higher generation, so a torn write loses at
// most the last update. It is a cache: nothing is fsynced, and losing it only means the next
// session starts un-armed.
//
// # Session entry points
//
// [Lane.Measure] measures and records the band when a session starts; [Lane.Recheck] rechecks
// by stat alone at the end of a turn and asks once per crossing to continue; [Lane.Snapshot]
// (before a session's first write to a memory file) and [Lane.Compare] (after it) are the
// write guard. They never print, and they do not know which agent calls them: every hook
// adapter renders what they return.
package lane
