// Package txn replaces, creates and deletes files as a journalled, compare-and-swap transaction that can always be rolled back or recovered.
package txn
