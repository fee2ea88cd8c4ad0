// Package safeplan is the test kit of the prose engine: clean's plan for the shipped safe pipeline, with the carrier policy answering in-process, as check builds it.
package safeplan
