// Package hooktest is the test kit of the agent adapters: a project with private state, approvals as a user gives them, the built binary, and captured hook payloads.
package hooktest
