// Command prosewash cleans invisible Unicode carriers from the prose regions of
// the files an AI coding agent wrote, and keeps its always-loaded memory lean.
package main
