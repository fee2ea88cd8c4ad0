// Command checkfloor is the floor `prosewash check` is measured against: it
// walks the same paths with the same walker and options as check (git's
// ignore rules, .git skipped, symlinks never followed, the size limit, the
// binary sniff with NUL-byte text handed over) and reads every file check
// reads, on as many goroutines, and does nothing else with the bytes but
// count them. What check spends beyond this is its own work: the carrier
// fast path over every byte, and classifying and deciding the few files
// that hold a carrier.
//
//	go run ./bench/checkfloor PATH...
//
// It prints the number of files and bytes read on standard output.
package main
