// Package textpos turns byte offsets into the line and column people see,
// one rule for every command and language.
package textpos
