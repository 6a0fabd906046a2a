package builtin

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Limits of the not-found hint.
const (
	hintMaxNames   = 30    // names listed from the nearest directory
	hintMaxHits    = 5     // places listed where a file of that name exists
	hintMaxEntries = 20000 // directory entries examined by the search
	hintMaxDepth   = 8     // directories deeper than this are not searched
)

// skipDir reports whether the search leaves out a directory named name:
// hidden ones (.git and .next among them) and those holding dependencies
// and build output.
func skipDir(name string) bool {
	switch name {
	case "node_modules", "dist", "coverage":
		return true
	}
	return strings.HasPrefix(name, ".")
}

// notFoundHint returns the message for a missing file rel of the workspace
// root, p being the path as the model gave it:
//
//	File not found: src/utils/strings.go
//	Path "src/utils" does not exist. Nearest existing directory "src" contains: main.go, text.
//	A file named "strings.go" exists at: src/text/strings.go (relative to the workspace root).
//
// The last line appears only when the search finds such a file.
func notFoundHint(ctx context.Context, root *os.Root, rel, p string) string {
	var b strings.Builder
	b.WriteString("File not found: " + p)
	comps := strings.Split(filepath.ToSlash(rel), "/")
	missing, nearest := filepath.ToSlash(rel), "."
	for i := range comps {
		prefix := strings.Join(comps[:i+1], "/")
		if _, err := root.Lstat(filepath.FromSlash(prefix)); err != nil {
			missing = prefix
			if i > 0 {
				nearest = strings.Join(comps[:i], "/")
			}
			break
		}
	}
	// The parent of the first missing component exists but may be a
	// file; the nearest directory is then further up.
	for nearest != "." {
		if info, err := root.Stat(filepath.FromSlash(nearest)); err == nil && info.IsDir() {
			break
		}
		nearest = path.Dir(nearest)
	}
	names := "(empty)"
	if entries, err := readDirNoWait(root, nearest); err == nil {
		var shown []string
		for _, e := range entries {
			if len(shown) == hintMaxNames {
				break
			}
			if !strings.HasPrefix(e.Name(), ".") {
				shown = append(shown, e.Name())
			}
		}
		if len(shown) > 0 {
			names = strings.Join(shown, ", ")
		}
	}
	b.WriteString("\nPath \"" + missing + "\" does not exist. Nearest existing directory \"" + nearest + "\" contains: " + names + ".")
	base := path.Base(filepath.ToSlash(rel))
	if hits := findByName(ctx, root, base); len(hits) > 0 {
		b.WriteString("\nA file named \"" + base + "\" exists at: " + strings.Join(hits, ", ") + " (relative to the workspace root).")
	}
	return b.String()
}

// findByName searches root breadth first for files (anything but
// directories) named name, and returns the paths of at most hintMaxHits of
// them. It examines at most hintMaxEntries entries, does not go deeper than
// hintMaxDepth levels, does not follow symbolic links and skips directories
// that skipDir names. It stops early
// when ctx is done.
func findByName(ctx context.Context, root *os.Root, name string) []string {
	var hits []string
	seen := 0
	level := []string{"."}
	for depth := 0; depth < hintMaxDepth && len(level) > 0; depth++ {
		var next []string
		for _, dir := range level {
			if ctx.Err() != nil {
				return hits
			}
			entries, err := readDirNoWait(root, dir)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if seen == hintMaxEntries {
					return hits
				}
				seen++
				p := path.Join(dir, e.Name())
				if e.IsDir() {
					if !skipDir(e.Name()) {
						next = append(next, p)
					}
					continue
				}
				if e.Name() == name {
					hits = append(hits, p)
					if len(hits) == hintMaxHits {
						return hits
					}
				}
			}
		}
		level = next
	}
	return hits
}

// readDirNoWait lists the directory dir ("/"-separated, below root) in
// name order. It opens dir without blocking: a directory swapped for a
// FIFO since it was seen is an error, not a wait for a writer that never
// comes (fs.ReadDir on root.FS() would wait).
func readDirNoWait(root *os.Root, dir string) ([]fs.DirEntry, error) {
	f, err := root.OpenFile(filepath.FromSlash(dir), os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}
