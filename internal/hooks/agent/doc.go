// Package agent holds what every agent hook protocol shares: the bounded payload decoder, the JSON writer, the panic guard and the readers of the paths a tool call writes.
package agent
