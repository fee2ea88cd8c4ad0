// Command fakeollama serves a fake Ollama API on loopback for shell and testscript tests of the ollama-rewrite provider; it runs until killed.
package main
