// Package wash measures the always-loaded agent memory, cuts provable fat and proves with a fidelity gate that no structured token was lost.
package wash
