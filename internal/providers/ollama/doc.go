// Package ollama is the built-in ollama-rewrite provider: it paraphrases prose regions through a local Ollama server over loopback only and refuses any output that loses a fact-bearing token.
package ollama
