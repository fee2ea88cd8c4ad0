// Package session is the prose lane's service for one agent session: it records what the agent wrote, starts a session, and ends a turn as the project's mode says.
package session
