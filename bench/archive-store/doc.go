// Command archive-store measures the transcript archive on a generated Claude Code store: throughput and peak memory of `prosewash wash archive`'s engine against GNU tar piped to gzip -6 over the same store.
//
// Usage:
//
//	go run ./bench/archive-store [-bytes 1073741824] [-sessions 1000] [-dir DIR] [-keep]
//
// It generates the store (internal/testkit/archivetest: transcripts, subagents, spilled tool
// results, workflows, flat agent files, ages over 200 days, a few recent sessions), runs the
// peer `tar -cf - . | gzip -6` over it, then archives it (sessions older than 14 days) in a
// child process whose peak resident memory the kernel reports. Figures go to standard output;
// nothing outside DIR (a temporary directory by default) is touched.
package main
