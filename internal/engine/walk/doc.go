// Package walk visits the files under user-given paths in parallel, honouring git's ignore rules, and hands each file's bytes to a callback while delivering results in a stable order.
package walk
