package gauge

// Estimate returns the estimated number of tokens text costs in a model's context.
func Estimate(text []byte) int {
	return (len(text) + 3) / 4
}
