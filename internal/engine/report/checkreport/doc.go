// Package checkreport writes what check found in each output format (text, JSON, SARIF, GitHub workflow commands): one writer per format behind one interface.
package checkreport
