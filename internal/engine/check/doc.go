// Package check finds the carriers of a file and says, carrier by carrier, what clean would do with each: it runs clean's own engine in-process, so the two cannot disagree.
package check
