package gate

// checkWith is Check with some of the gate's checks disabled (cfg), so a
// test can prove which check stops a given loss.
func checkWith(orig, result []byte, cfg checks) []Drop {
	return checkInv(inventory(orig, cfg), inventory(result, cfg), cfg, nil)
}
