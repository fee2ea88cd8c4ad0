// Package rusage is what the benchmarks read of a finished child process
// and of the system, per platform: its peak resident set, and a sync that
// makes each timed command pay for its own writes only.
package rusage
