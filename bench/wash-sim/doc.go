// Command wash-sim simulates sessions of additive agent-memory growth and measures what automatic washing saves: the always-loaded tokens carried per session with and without the Quick pass at OBESE/FULL, and the facts lost (which must be zero).
//
// Usage:
//
//	go run ./bench/wash-sim [-sessions 60] [-seed 1] [-hours 8] [-arm 500] [-json]
//
// Both arms get the same seeded feed of realistic notes: new topic notes with an index entry
// in MEMORY.md, an agent re-saving a memory it already has (exact duplicates), rules repeated
// in CLAUDE.md, blank runs and trailing spaces, notes the user moves into archive/ (the index
// link goes dead with one new home) and notes the user deletes (a dead index entry). Arm A
// runs the real hooks: SessionStart gauges, Stop blocks once per crossing, and the agent then
// runs the Quick pass; arm B never washes. Every fact carries unique structured tokens; after
// every session each live fact's tokens must be found in memory or the recovery bins.
package main
