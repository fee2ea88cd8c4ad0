// Package clean runs the prose lane: scope, classification, provider stages, outside-bytes proof, validation and the transaction.
package clean
