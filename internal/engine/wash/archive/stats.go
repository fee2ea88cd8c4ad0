package archive

import (
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// AgeBands are the upper bounds of the age bands stats reports, newest first.
func AgeBands() []time.Duration {
	return []time.Duration{24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 90 * 24 * time.Hour}
}

// BandName names an age band by its upper bound (the last band is open).
func BandName(i int) string {
	switch i {
	case 0:
		return "<1d"
	case 1:
		return "1-7d"
	case 2:
		return "7-30d"
	case 3:
		return "30-90d"
	}
	return ">90d"
}

// ProjectStats is one project's transcript store.
type ProjectStats struct {
	Slug     string  `json:"slug"`
	Sessions int     `json:"sessions"`
	Bytes    int64   `json:"bytes"`
	ByAge    []int64 `json:"bytes_by_age"` // per band of AgeBands, plus the open one
	// Archived sessions and their original and compressed bytes.
	Archived           int   `json:"archived"`
	ArchivedBytes      int64 `json:"archived_bytes"`
	ArchivedCompressed int64 `json:"archived_compressed"`
	// Memory is the auto memory directory's bytes: class B, never archived.
	Memory int64 `json:"memory_bytes,omitempty"`
}

// StoreStats is every project's store, with the compression measured on a sample.
type StoreStats struct {
	Projects []ProjectStats `json:"projects"`
	Bytes    int64          `json:"bytes"`
	Sessions int            `json:"sessions"`
	// SampleBytes were compressed at the archive's level to measure Ratio (original/compressed);
	// zero when there was nothing to sample.
	SampleBytes int64   `json:"sample_bytes"`
	Ratio       float64 `json:"ratio"`
}

// sampleLimit bounds the bytes stats compresses to measure the ratio.
const sampleLimit = 4 << 20

// Stats measures the transcript stores under <configDir>/projects and the archives under
// archiveRoot (one directory per project slug): bytes per project and per age band of the
// unit's newest file, and the compression ratio measured on up to 4 MiB taken from the largest
// transcripts (never estimated). It reads nothing else and writes nothing.
func Stats(configDir, archiveRoot string, now time.Time) (StoreStats, error) {
	var st StoreStats
	projects := filepath.Join(configDir, "projects")
	ents, err := os.ReadDir(projects)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return st, err
	}
	type sized struct {
		path string
		size int64
	}
	var biggest []sized
	seen := map[string]bool{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		ps := ProjectStats{Slug: e.Name(), ByAge: make([]int64, len(AgeBands())+1)}
		units, err := List(Options{ConfigDir: configDir, Store: filepath.Join(projects, e.Name()), Now: func() time.Time { return now }})
		if err != nil {
			return st, err
		}
		for _, u := range units {
			ps.Sessions++
			ps.Bytes += u.Bytes
			band := len(AgeBands())
			for i, b := range AgeBands() {
				if now.Sub(u.Newest) < b {
					band = i
					break
				}
			}
			ps.ByAge[band] += u.Bytes
			for _, f := range u.Files {
				biggest = append(biggest, sized{filepath.Join(projects, e.Name(), filepath.FromSlash(f.Rel)), f.Size})
			}
		}
		ps.Memory = dirBytes(filepath.Join(projects, e.Name(), "memory"))
		if archiveRoot != "" {
			ps.addArchived(filepath.Join(archiveRoot, e.Name()))
		}
		seen[e.Name()] = true
		st.Projects = append(st.Projects, ps)
		st.Bytes += ps.Bytes
		st.Sessions += ps.Sessions
	}
	// Projects whose store is gone but whose archives remain.
	if archiveRoot != "" {
		if aents, err := os.ReadDir(archiveRoot); err == nil {
			for _, e := range aents {
				if e.IsDir() && !seen[e.Name()] {
					ps := ProjectStats{Slug: e.Name(), ByAge: make([]int64, len(AgeBands())+1)}
					ps.addArchived(filepath.Join(archiveRoot, e.Name()))
					if ps.Archived > 0 {
						st.Projects = append(st.Projects, ps)
					}
				}
			}
		}
	}
	sort.Slice(st.Projects, func(i, j int) bool { return st.Projects[i].Bytes > st.Projects[j].Bytes })
	sort.Slice(biggest, func(i, j int) bool { return biggest[i].size > biggest[j].size })
	var in, out int64
	for _, b := range biggest {
		if in >= sampleLimit {
			break
		}
		i, o, err := sample(b.path, sampleLimit-in)
		if err == nil {
			in += i
			out += o
		}
	}
	st.SampleBytes = in
	if out > 0 {
		st.Ratio = float64(in) / float64(out)
	}
	return st, nil
}

func (ps *ProjectStats) addArchived(dir string) {
	as, err := ListArchived(dir)
	if err != nil {
		return
	}
	for _, a := range as {
		if a.Err != "" {
			continue
		}
		ps.Archived++
		ps.ArchivedBytes += a.Bytes
		ps.ArchivedCompressed += a.Compressed
	}
}

// sample compresses up to limit bytes of a file at the archive's level, returning the bytes
// read and written.
func sample(path string, limit int64) (int64, int64, error) {
	f, _, err := fsx.OpenRegular(path, false)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var cw countWriter
	zw, err := gzip.NewWriterLevel(&cw, gzip.DefaultCompression)
	if err != nil {
		return 0, 0, err
	}
	n, err := io.Copy(zw, io.LimitReader(f, limit))
	if err != nil {
		return 0, 0, err
	}
	if err := zw.Close(); err != nil {
		return 0, 0, err
	}
	return n, cw.n, nil
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func dirBytes(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
