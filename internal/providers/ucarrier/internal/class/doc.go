// Package class assigns every code point its carrier class from Go's own Unicode tables, shared by the policy and its table generator.
package class
