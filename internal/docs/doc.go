// Package docs checks the documentation: the README stays short and every link in it and in docs/ resolves.
package docs
