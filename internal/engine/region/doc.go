// Package region splits a source file into byte-offset regions of kind prose, directive or runtime, per language.
package region
