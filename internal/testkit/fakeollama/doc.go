// Package fakeollama is a loopback HTTP server speaking enough of Ollama's API (/api/chat, /api/tags, /api/version) to test the rewrite provider, with selectable failure modes and a record of every request.
package fakeollama
