package builtin

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/tool"
)

const listDirDescription = `List the entries of a directory, sorted by name, one per line: ` +
	`"name/ (dir)", "name (file, N bytes)", "name (symlink)" or "name (other)". ` +
	`The path is relative to the workspace, or absolute inside it; the workspace root when omitted. ` +
	`Symbolic links are shown, not followed.`

type listDirInput struct {
	Path string `json:"path,omitempty" jsonschema:"the directory to list, relative to the workspace or absolute inside it; the workspace root when omitted"`
}

func (st *searchTools) listDir(ctx context.Context, c *tool.Call, in listDirInput) (tool.Result, error) {
	d, res, err := st.open(ctx, c.SessionID, in.Path)
	if d == nil {
		return *res, err
	}
	defer d.close()
	mode, err := d.stat()
	if errors.Is(err, errSymlink) {
		return errSearchChanged(in.Path), nil
	}
	if err != nil {
		return tool.Result{}, fmt.Errorf("list %s: %w", in.Path, unwrapPathError(err))
	}
	if !mode.IsDir() || d.base == nil {
		return tool.Errorf("Not a directory: %s", cmp.Or(in.Path, ".")), nil
	}
	dir, err := d.base.openDir(d.t.rel, false)
	if errors.Is(err, errSymlink) {
		return errSearchChanged(in.Path), nil
	}
	if err != nil {
		return tool.Result{}, fmt.Errorf("list %s: %w", in.Path, unwrapPathError(err))
	}
	defer dir.close()
	entries, err := dir.readDir()
	if err != nil && len(entries) == 0 {
		return tool.Result{}, fmt.Errorf("list %s: %w", in.Path, unwrapPathError(err))
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	var out strings.Builder
	bu := newBudget(st.maxChars)
	shown, withheld, total := 0, 0, 0
	cut := false // the budget is spent
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return tool.Result{}, err
		}
		if !st.allowed(ctx, c.SessionID, d.display(filepath.Join(d.t.rel, e.Name()))) {
			withheld++
			continue
		}
		total++
		if cut || shown == st.maxList {
			continue
		}
		if !bu.add(&out, describeEntry(dir, e)+"\n") {
			cut = true
			continue
		}
		shown++
	}
	var notes []string
	switch {
	case total == 0 && withheld == 0:
		notes = append(notes, "(empty directory)")
	case shown < total:
		notes = append(notes, fmt.Sprintf("(Showing the first %d of %d entries.)", shown, total))
	}
	if withheld > 0 {
		notes = append(notes, fmt.Sprintf("(%d entries withheld: the permission policy does not allow reading them.)", withheld))
	}
	return tool.Text(finish(out.String(), notes)), nil
}

// describeEntry returns the line list_dir shows for e, an entry of dir. It
// follows no link: the type and size are those of the entry itself.
func describeEntry(dir *dirHandle, e fs.DirEntry) string {
	switch t := e.Type(); {
	case t.IsDir():
		return e.Name() + "/ (dir)"
	case t&fs.ModeSymlink != 0:
		return e.Name() + " (symlink)"
	case t.IsRegular():
		st, err := dir.stat(e.Name())
		if err != nil {
			return e.Name() + " (file)"
		}
		return fmt.Sprintf("%s (file, %d bytes)", e.Name(), st.size)
	default:
		return e.Name() + " (other)"
	}
}
