//go:build !linux

package walk

func listDir(path string, ws *workerState) error { return osListDir(path, ws) }

func readFile(path string, ws *workerState, limit int64) ([]byte, SkipReason, int64, error) {
	return osReadFile(path, ws, limit)
}
