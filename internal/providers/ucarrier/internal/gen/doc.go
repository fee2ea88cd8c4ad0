// Command gen writes tables.go for the unicode provider from the Unicode Character Database (run through go generate).
package main
