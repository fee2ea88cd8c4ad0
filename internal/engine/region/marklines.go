package region

// markLines marks [start, end) as kind k, except its \r and \n bytes, which
// are runtime: no region handed to a cleaner holds a line break.
func markLines(b *Builder, src []byte, start, end int, k Kind, why string) {
	from := start
	for i := start; i < end; i++ {
		if c := src[i]; c == '\n' || c == '\r' {
			b.Mark(from, i, k, why)
			b.Mark(i, i+1, Runtime, "line break")
			from = i + 1
		}
	}
	b.Mark(from, end, k, why)
}
