// Package git runs prosewash's git hooks: pre-commit cleans the staged files this session wrote, post-checkout marks the recorded files a checkout replaced.
package git
