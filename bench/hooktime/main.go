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
	times, cpu  []time.Duration
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
			d, c, err := run(j)
			if err != nil {
				fmt.Fprintf(os.Stderr, "hooktime: %s: %v\n", j.name, err)
				os.Exit(1)
			}
			if r >= *warmup {
				j.times = append(j.times, d)
				j.cpu = append(j.cpu, c)
			}
		}
	}
	base, cbase := median(jobs[0].times), median(jobs[0].cpu)
	for _, j := range jobs {
		m, c := median(j.times), median(j.cpu)
		fmt.Printf("| %-30s | %6.2f ms | %5.2fx | %6.2f ms | %5.2fx |\n", j.name,
			ms(m), float64(m)/float64(base), ms(c), float64(c)/float64(cbase))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// run runs j once and returns its wall time and CPU time.
func run(j *job) (time.Duration, time.Duration, error) {
	cmd := exec.Command(j.argv[0], j.argv[1:]...)
	if j.stdin != "-" {
		f, err := os.Open(j.stdin)
		if err != nil {
			return 0, 0, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return 0, 0, err
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

func median(ts []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ts...)
	sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
	return s[len(s)/2]
}
