package ollama

import (
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
)

const benchPara = "  The parser reads every line of the input, uses `Scan()` to check 12 tokens at a time\n" +
	"  and returns errors early; see https://example.com/docs/parser for the details about it.  \n"

func BenchmarkAccept(b *testing.B) {
	input := strings.Repeat(benchPara, 8)
	answer := fakeollama.Rewrite(input)
	b.SetBytes(int64(len(input)))
	for b.Loop() {
		if _, reason := Accept(input, answer); reason != "" {
			b.Fatal(reason)
		}
	}
}

// BenchmarkServeRegion measures the provider's own cost per region: one
// loopback HTTP round trip to the fake plus post-processing.
func BenchmarkServeRegion(b *testing.B) {
	srv := fakeollama.Start(b, fakeollama.Options{})
	req := &provider.Request{Protocol: provider.Protocol, Operation: Operation}
	regions := make([]provider.RegionPayload, 20)
	for i := range regions {
		regions[i] = provider.RegionPayload{ID: i, Kind: "prose", Text: benchPara}
	}
	req.Files = []provider.FileRegions{{Path: "a.md", Regions: regions}}
	for b.Loop() {
		if _, err := callB(b, args(srv.URL), req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(regions)), "µs/region")
}
