// Package provider loads provider definitions, resolves capabilities and runs providers as subprocesses over a JSON protocol.
package provider
