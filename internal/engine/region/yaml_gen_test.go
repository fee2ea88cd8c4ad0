package region

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// genYAML builds a random document from the constructs where a comment's
// extent is decided: block scalars with indicators and header comments,
// quoted scalars over lines, multi-line plain scalars, flow collections
// over lines, anchors and tags, document markers, tabs, CRLF, and the three
// separators libyaml treats as line breaks. Most outputs are valid YAML for
// some reader; the rest exercise the error paths.
func genYAML(rng *rand.Rand) string {
	words := []string{"a", "key", "x y", "it's", "a#b", "http://h#f", "é", "1", "true", "-x", ":x", "x {{ v }}"}
	seps := []string{"\u2028", "\u0085", "\u2029"}
	comment := func() string {
		c := " # note " + words[rng.IntN(len(words))]
		if rng.IntN(6) == 0 {
			c += seps[rng.IntN(len(seps))] + words[rng.IntN(len(words))] + ": " + words[rng.IntN(len(words))]
		}
		return c
	}
	var sb strings.Builder
	nl := "\n"
	if rng.IntN(8) == 0 {
		nl = "\r\n"
	}
	// Top-level entries start at column 0; what nests under them sits at
	// column 2 or deeper, so most documents are valid.
	for n := range 3 + rng.IntN(8) {
		w := words[rng.IntN(len(words))]
		key := fmt.Sprintf("k%d", n)
		switch rng.IntN(11) {
		case 0:
			sb.WriteString(strings.Repeat(" ", rng.IntN(4)) + "#" + comment())
		case 1:
			h := []string{"|", ">", "|-", ">+", "|2", "|1-"}[rng.IntN(6)]
			sb.WriteString(key + ": " + h)
			if rng.IntN(2) == 0 {
				sb.WriteString(comment())
			}
			for l := range 1 + rng.IntN(4) {
				sb.WriteString(nl + strings.Repeat(" ", 2+rng.IntN(3)) + []string{"text", "# hash", "", w}[(l+rng.IntN(4))%4])
			}
			if rng.IntN(2) == 0 {
				sb.WriteString(nl + strings.Repeat(" ", rng.IntN(2)) + "#" + comment())
			}
		case 2:
			sb.WriteString(key + ": \"" + w + nl + "  # in quotes \\\"" + nl + "  end\"" + comment())
		case 3:
			sb.WriteString(key + ": '" + w + "''" + nl + " # in single'" + comment())
		case 4:
			sb.WriteString(key + ": " + w + nl + "  \"" + w + nl + "  more" + comment())
		case 5:
			sb.WriteString(key + ": [" + w + ", # in flow" + nl + "  {a: " + w + "}, \"#\"]" + comment())
		case 6:
			sb.WriteString(key + ":" + nl + "  - &a" + fmt.Sprint(n) + " !t " + w + comment() + nl + "  - *a" + fmt.Sprint(n))
		case 7:
			sb.WriteString([]string{"---", "...\n---", "--- # doc", "%YAML 1.2\n---"}[rng.IntN(4)] + comment())
		case 8:
			sb.WriteString(key + ":\t" + w + "\t#" + comment())
		case 9:
			sb.WriteString(key + ":" + nl + "  - " + w + ": " + w + comment() + nl + "    k: |" + nl + "      # body" + nl + "    # after")
		default:
			sb.WriteString(key + ": " + w + seps[rng.IntN(len(seps))] + "z" + key + ": " + w + comment())
		}
		sb.WriteString(nl)
	}
	return sb.String()
}

// TestYAMLGeneratedAgainstReaders runs the reader oracles on 1500 generated
// documents: every one that a reader decodes must decode the same with its
// prose replaced by junk.
func TestYAMLGeneratedAgainstReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle test")
	}
	rng := rand.New(rand.NewPCG(14, 2026))
	var inputs []yamlInput
	for i := range 1500 {
		inputs = append(inputs, yamlInput{fmt.Sprintf("generated #%d", i), []byte(genYAML(rng))})
	}
	pairs, counts := checkYAMLReaders(t, inputs)
	if pairs < 600 || counts["PyYAML"] < 200 || counts["npm yaml"] < 200 || counts["go yaml.v3"] < 200 {
		t.Errorf("weak run: %d classified, decoded %v", pairs, counts)
	}
}
