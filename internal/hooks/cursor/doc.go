// Package cursor speaks Cursor's agent hook protocol (.cursor/hooks.json: afterFileEdit, stop with followup_message, sessionStart) over the shared session core, built from Cursor's documented schema and not yet run against the real client.
package cursor
