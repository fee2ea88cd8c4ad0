package tomlx

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// LoadDefinitions reads every *.toml of one kind of definition (providers,
// pipelines): the shipped ones first, then the project's. Ids must be unique,
// and a project id "custom/x" that collides with a shipped "x" is refused,
// never resolved: a project file must not shadow what ships.
func LoadDefinitions[T any](kind string, shipped fs.FS, shippedDir string, custom fs.FS, customDir string,
	parse func(file string, data []byte, shipped bool) (T, error),
	id func(T) string, source func(T) string) ([]T, map[string]T, error) {
	var all []T
	byID := map[string]T{}
	load := func(fsys fs.FS, dir string, isShipped bool) error {
		if fsys == nil {
			return nil
		}
		names, err := fs.Glob(fsys, "*.toml")
		if err != nil {
			return err
		}
		sort.Strings(names)
		for _, n := range names {
			file := path.Join(dir, n)
			data, err := fs.ReadFile(fsys, n)
			if err != nil {
				return fmt.Errorf("read %s definition %s: %w", kind, file, err)
			}
			d, err := parse(file, data, isShipped)
			if err != nil {
				return err
			}
			if prev, dup := byID[id(d)]; dup {
				return &Error{File: file, Key: "id", Msg: fmt.Sprintf("id %q is already defined by %s", id(d), source(prev))}
			}
			if !isShipped {
				if base := strings.TrimPrefix(id(d), "custom/"); base != id(d) {
					if _, clash := byID[base]; clash {
						return &Error{File: file, Key: "id", Msg: fmt.Sprintf("%q collides with the shipped %s %q; refused", id(d), kind, base)}
					}
				}
			}
			byID[id(d)] = d
			all = append(all, d)
		}
		return nil
	}
	if err := load(shipped, shippedDir, true); err != nil {
		return nil, nil, err
	}
	if err := load(custom, customDir, false); err != nil {
		return nil, nil, err
	}
	return all, byID, nil
}
