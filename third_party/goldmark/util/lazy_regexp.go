package util

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles pattern on first use instead of at package
// initialisation, which every program linking this package pays for.
func lazyRegexp(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
