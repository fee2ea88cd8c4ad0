package region

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

// Benchmark inputs for the '#'-comment languages, built like the others:
// about 256 KiB of realistic text, ASCII and non-ASCII prose.

func benchShell(t benchText) []byte {
	return repeatTo("#!/usr/bin/env bash\n# shellcheck disable=SC2086\nset -euo pipefail\n\n", func(i int) string {
		return fmt.Sprintf(`# %[2]s
load_%[1]d() { # %[3]s
  local path="${1:-/etc/app.conf}" # %[3]s
  if [[ ! -f $path ]]; then
    echo '%[4]s' >&2 # lint: %[3]s
    return 1
  fi
  cat <<EOF
# %[2]s
size: $(wc -c <"$path")
EOF
  for f in "${files[@]#./}"; do printf '%%s\n' "$f"; done
}

`, i, t.doc, t.comment, t.str)
	})
}

func benchTOML(t benchText) []byte {
	return repeatTo("#:schema https://json.schemastore.org/cargo.json\n# %s\n[package]\nname = \"demo\"\n\n", func(i int) string {
		return fmt.Sprintf(`# %[2]s
[dependencies.dep%[1]d]
version = "1.%[1]d" # %[3]s
features = [ # %[3]s
  "std", # %[3]s
  "derive",
]
description = """
%[4]s
"""
# lint: %[3]s

`, i, t.doc, t.comment, t.str)
	})
}

func benchDockerfile(t benchText) []byte {
	return repeatTo("# syntax=docker/dockerfile:1\n# check=skip=all\n\nFROM golang:1.26 AS build\n", func(i int) string {
		return fmt.Sprintf(`# %[2]s
# hadolint ignore=DL3008
RUN apt-get update \
  # %[3]s
  && apt-get install -y pkg%[1]d # %[4]s
COPY <<EOF /etc/app%[1]d.conf
# %[2]s
EOF
  # %[3]s

`, i, t.doc, t.comment, t.str)
	})
}

func BenchmarkClassifyShell(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.sh", benchShell(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.sh", benchShell(intlText)) })
}

func BenchmarkClassifyTOML(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.toml", benchTOML(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.toml", benchTOML(intlText)) })
}

func BenchmarkClassifyDockerfile(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "Dockerfile", benchDockerfile(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "Dockerfile", benchDockerfile(intlText)) })
}

func TestHashBenchInputs(t *testing.T) {
	for _, c := range []struct {
		path string
		src  []byte
	}{
		{"b.sh", benchShell(asciiText)}, {"b.sh", benchShell(intlText)},
		{"b.toml", benchTOML(asciiText)}, {"b.toml", benchTOML(intlText)},
		{"Dockerfile", benchDockerfile(asciiText)}, {"Dockerfile", benchDockerfile(intlText)},
	} {
		checkBenchInput(t, c.path, c.src)
	}
}

// adversarialHash builds inputs meant to make a classifier quadratic: a
// one-line shell script of n bytes (words, quotes, substitutions and a
// trailing comment), a Dockerfile instruction continued over n bytes with
// heredoc openers, a TOML array of n bytes with comments.
func adversarialHash(kind string, n int) (string, []byte) {
	var unit, head, tail string
	name := "f.sh"
	switch kind {
	case "shell-one-line":
		unit = `a "$b" '#' ${c#d} $(e f) `
		tail = "# end\n"
	case "shell-comments":
		unit = "x # c \\\n"
	case "docker-continued":
		name, head, unit, tail = "Dockerfile", "FROM x\nRUN a \\\n", " <<A b \\\n # c\n", "\n"
	case "docker-heredocs":
		name, head, unit = "Dockerfile", "FROM x\n", "RUN <<A <<B <<C\n# a\n"
	case "toml-array":
		name, head, unit, tail = "f.toml", "a = [\n", "  \"x#\", # c\n", "]\n"
	}
	b := make([]byte, 0, n+len(head)+len(tail))
	b = append(b, head...)
	for len(b) < n {
		b = append(b, unit...)
	}
	return name, append(b, tail...)
}

// TestHashClassifiersLinear checks that time grows linearly with input size
// on adversarial input, up to a 5 MB one-line shell script: the time per
// byte at the largest size may not exceed 16x the time per byte at a size
// 64x smaller (a quadratic classifier would be 64x; the wide slack absorbs
// a loaded CI machine, where the garbage collector and cache misses alone
// have cost a linear classifier 10x per byte at 5 MB). It measures growth,
// never absolute time.
func TestHashClassifiersLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	// The process's CPU time, not wall time, where the platform gives it: a
	// long run on a loaded machine waits for a core many times over, a short
	// one rarely, which made wall time grow 40x per byte for a linear
	// classifier at load 20-30 (docker-heredocs: 6.6 ns/byte at 80 KiB, 524 at
	// 5 MiB; its CPU time grew 3x).
	clock := func() int64 {
		if c := processCPU(); c >= 0 {
			return c
		}
		return time.Now().UnixNano()
	}
	perByte := func(name string, src []byte) float64 {
		best := int64(1 << 62)
		for range 5 {
			runtime.GC()
			start := clock()
			if _, err := Classify(name, src); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			best = min(best, clock()-start)
		}
		return float64(max(best, 1)) / float64(len(src))
	}
	for _, kind := range []string{"shell-one-line", "shell-comments", "docker-continued", "docker-heredocs", "toml-array"} {
		small, large := 5<<20/64, 5<<20
		ns, srcS := adversarialHash(kind, small)
		nl, srcL := adversarialHash(kind, large)
		// A superlinear classifier is over the bound on every attempt; a
		// loaded machine (other test binaries, page faults on fresh heap at
		// the large size: 12-28x seen at load 20-30 for a linear one) only
		// on some, so a kind fails only when three attempts all are.
		var s, l float64
		for attempt := range 3 {
			s, l = perByte(ns, srcS), perByte(nl, srcL)
			t.Logf("%s, attempt %d: %.1f ns/byte at %d KiB, %.1f ns/byte at %d KiB", kind, attempt+1, s, small>>10, l, large>>10)
			if l <= 16*s {
				break
			}
		}
		if l > 16*s {
			t.Errorf("%s: %.1f ns/byte at %d bytes vs %.1f at %d, three times: not linear", kind, l, len(srcL), s, len(srcS))
		}
	}
}
