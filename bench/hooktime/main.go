// Command hooktime times whole processes, alternating between them, with a
// file on standard input and no shell in between: the hooks run for a few
// milliseconds, so a shell's own start-up would drown the difference.
//
//	go run ./bench/hooktime -runs 300 -- NAME STDIN PROG ARGS... -- NAME STDIN PROG ARGS...
//
// STDIN is a file or "-" for none. It prints one line per command: the
// median wall time and the ratio to the first command.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"time"
)

type job struct {
	name, stdin string
	argv        []string
	times       []time.Duration
}

func main() {
	runs := flag.Int("runs", 300, "rounds (each command once per round)")
	warmup := flag.Int("warmup", 20, "untimed rounds first")
	flag.Parse()
	var jobs []*job
	var cur []string
	flush := func() {
		if len(cur) >= 3 {
			jobs = append(jobs, &job{name: cur[0], stdin: cur[1], argv: cur[2:]})
		} else if len(cur) > 0 {
			fmt.Fprintln(os.Stderr, "hooktime: each command needs NAME STDIN PROG [ARGS...]")
			os.Exit(2)
		}
		cur = nil
	}
	for _, a := range flag.Args() {
		if a == "--" {
			flush()
			continue
		}
		cur = append(cur, a)
	}
	flush()
	if len(jobs) == 0 {
		fmt.Fprintln(os.Stderr, "hooktime: no commands")
		os.Exit(2)
	}
	for r := 0; r < *warmup+*runs; r++ {
		for _, j := range jobs {
			d, err := run(j)
			if err != nil {
				fmt.Fprintf(os.Stderr, "hooktime: %s: %v\n", j.name, err)
				os.Exit(1)
			}
			if r >= *warmup {
				j.times = append(j.times, d)
			}
		}
	}
	base := median(jobs[0].times)
	for _, j := range jobs {
		m := median(j.times)
		fmt.Printf("| %-30s | %6.2f ms | %5.2fx |\n", j.name, float64(m.Microseconds())/1000, float64(m)/float64(base))
	}
}

func run(j *job) (time.Duration, error) {
	cmd := exec.Command(j.argv[0], j.argv[1:]...)
	if j.stdin != "-" {
		f, err := os.Open(j.stdin)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	return time.Since(start), err
}

func median(ts []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ts...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	return s[len(s)/2]
}
