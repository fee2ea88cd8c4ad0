// Package bins keeps every cut the memory lane makes, so any of them can be put back, and thins the kept cuts on a Time Machine ladder that only a real wash run may act on.
//
// # Layout
//
// A bin is a directory under <state dir>/wash/bins/: quick (mechanical cuts, kept up to 30
// days), plan (semantic plan cuts, 60 days) and guard (write-guard snapshots, 30 days). Each
// run banks one event, a directory named by its id holding meta.json and the raw original
// bytes of every file the run changed (<n>.orig). The event is written to a temporary
// directory, fsynced, renamed into place and read back before the run's first write, so a
// cut never exists without its copy. Everything is private (0700 directories, 0600 files).
//
// # Retention
//
// [Retain] is a pure function of the events, the time and a [Policy]: everything younger
// than 48 hours stays; up to 14 days the newest event of each day stays; up to the horizon
// the newest event of each week; past the horizon nothing. An event is one run, so the files
// of a run live or die together. A size cap (a multiple of the measured store's bytes, never
// the disk) then evicts the oldest events, but never one younger than 48 hours, never the
// newest, and only in a second phase the last event of a week; what still does not fit is a
// reported cap conflict, not a deletion.
//
// # Destruction
//
// Only [Store.Sweep] destroys, and the lane calls it only inside a real run (never from a
// hook, a listing or a clock). Each destroyed event is verified gone before one line is
// appended to death.log; an event that could not be removed stays listed.
package bins
