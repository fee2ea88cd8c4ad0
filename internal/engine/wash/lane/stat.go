package lane

import "os"

// statSize is the stat-only probe of the Stop hook's recheck.
func statSize(p string) (int64, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}
