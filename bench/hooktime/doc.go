// Command hooktime times whole processes, alternating between them, with a
// file on standard input and no shell in between: the hooks run for a few
// milliseconds, so a shell's own start-up would drown the difference.
//
//	go run ./bench/hooktime -runs 300 -- NAME STDIN PROG ARGS... -- NAME STDIN PROG ARGS...
//
// STDIN is a file or "-" for none. It prints one line per command: the
// median wall time and its ratio to the first command, then the median CPU
// time (user + system, of the process and its threads) and its ratio. On a
// loaded machine the wall time includes waiting for a core; the CPU time
// does not, so it says more about what a change saved.
package main
