// Package check finds the carriers of a file and places each in its region
// with the action clean would take, without writing anything.
package check
