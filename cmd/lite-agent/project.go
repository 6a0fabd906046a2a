package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// project is what the global flags select: the resolved layout and the
// record encoding of its stores.
type project struct {
	paths storage.ProjectPaths
	opts  storage.Options
	enc   storage.Encoding
	// managed is the managed permission file --managed-permissions names;
	// "" leaves it to permission.FileOptions (the variable, in the default
	// namespace only).
	managed string
	// secretEnv names the environment variables that hold the store
	// codec's key (--key-env), which the permission gate is told of.
	secretEnv []string
}

// project resolves the global flags into a project. It creates nothing.
func (g *globalFlags) project() (project, error) {
	workdir, err := g.workdirOption()
	if err != nil {
		return project{}, err
	}
	opts, err := g.storageOptions()
	if err != nil {
		return project{}, err
	}
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: workdir, Storage: opts})
	if err != nil {
		return project{}, err
	}
	if err := checkWorkdir(p.Workdir()); err != nil {
		return project{}, err
	}
	if err := checkHome(p.Home); err != nil {
		return project{}, err
	}
	var secretEnv []string
	if g.keyEnv.set {
		secretEnv = []string{g.keyEnv.value} // storageOptions checked it
	}
	return project{
		paths:     p,
		opts:      opts,
		enc:       storage.Encoding{Codec: opts.Codec, Namespace: p.Namespace, ProjectID: p.Hash},
		managed:   g.managed.value,
		secretEnv: secretEnv,
	}, nil
}

// A HomeNotDirError reports a data home that exists but is not a directory
// (a mistyped --home naming a key file, say), or that lies below a file.
type HomeNotDirError struct {
	// Home is the data home the flags select.
	Home string
}

func (e *HomeNotDirError) Error() string {
	return fmt.Sprintf("data home %s is not a directory: give --home (or %s) a directory, or move the file away", e.Home, storage.HomeEnv)
}

// A HomeUnreadableError reports a data home its user may not list or
// search.
type HomeUnreadableError struct {
	// Home is the data home the flags select.
	Home string
	// Err is the failing call's error; it matches fs.ErrPermission.
	Err error
}

func (e *HomeUnreadableError) Error() string {
	return fmt.Sprintf("data home %s cannot be read (permission denied): give --home a directory you can read, or fix its permissions", e.Home)
}

func (e *HomeUnreadableError) Unwrap() error { return e.Err }

// checkHome refuses a home that is not a directory, or that its user may
// not list or search, before a command reads or writes below it, where the
// failing call would name a path under the home rather than the home (or,
// reading, find nothing and succeed). A home that does not exist is left to
// the command.
func checkHome(home string) error {
	info, err := os.Stat(home)
	if (err == nil && !info.IsDir()) || errors.Is(err, syscall.ENOTDIR) {
		return &HomeNotDirError{Home: home}
	}
	if err != nil {
		return nil
	}
	f, err := os.Open(home)
	if err == nil {
		f.Close()
		// Listing needs read permission, reaching what is below the
		// home search permission.
		_, err = os.Lstat(filepath.Join(home, "projects"))
	}
	if errors.Is(err, fs.ErrPermission) {
		return &HomeUnreadableError{Home: home, Err: err}
	}
	return nil
}

// exists reports whether path exists (without following a final symlink),
// so that read-only commands do not create store directories.
func exists(path string) (bool, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// checkpointer opens the project's session store, or returns nil when the
// sessions directory does not exist.
func (p project) checkpointer() (*session.FileCheckpointer, error) {
	if err := p.checkLayoutDirs(p.paths.SessionsDir); err != nil {
		return nil, err
	}
	ok, err := exists(p.paths.SessionsDir)
	if err != nil || !ok {
		return nil, err
	}
	return session.NewFileCheckpointer(p.paths.SessionsDir, session.FileOptions{Encoding: p.enc})
}

// writeJSON writes v as indented JSON followed by a newline. U+2028 and
// U+2029 are always escaped: an Encoder that does not escape HTML leaves
// them raw inside a json.RawMessage (a tool call's input read from a
// store), where a reader splitting lines on them, and a terminal, would
// take them for line breaks.
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeLineSeparators(b.Bytes()))
	return err
}

// escapeLineSeparators escapes U+2028 and U+2029 in the JSON text b, where
// they can stand only inside strings.
func escapeLineSeparators(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("\u2028"), []byte(`\u2028`))
	return bytes.ReplaceAll(b, []byte("\u2029"), []byte(`\u2029`))
}

// errFailed marks a command that printed its findings and must exit 1
// without printing anything more.
type errFailed struct{ msg string }

func (e errFailed) Error() string { return e.msg }

// A WorkdirNotDirError reports a --workdir that names something other
// than a directory, a file say. (A workdir that does not exist is allowed:
// the data of a removed project can still be listed, verified or cleaned.)
type WorkdirNotDirError struct {
	// Workdir is the project directory the flags select.
	Workdir string
}

func (e *WorkdirNotDirError) Error() string {
	return fmt.Sprintf("workdir %s is not a directory: give --workdir the project directory", e.Workdir)
}

// checkWorkdir refuses a workdir that exists but is not a directory, or
// that lies below a file.
func checkWorkdir(workdir string) error {
	info, err := os.Stat(workdir)
	if (err == nil && !info.IsDir()) || errors.Is(err, syscall.ENOTDIR) {
		return &WorkdirNotDirError{Workdir: workdir}
	}
	return nil
}

// A LayoutNotDirError reports something other than a directory (a file,
// say) where the project's layout in the data home has a directory: the
// projects directory, the project's directory, or its sessions, tasks or
// spill directory.
type LayoutNotDirError struct {
	// Path is the entry that is not a directory.
	Path string
	// What names the directory the layout has there.
	What string
	// Mode is the entry's type.
	Mode fs.FileMode
}

func (e *LayoutNotDirError) Error() string {
	what := "a file"
	if !e.Mode.IsRegular() {
		what = "not a directory (" + e.Mode.Type().String() + ")"
	}
	return fmt.Sprintf("%s is %s where %s should be: move it out of the data home (or fix it)", e.Path, what, e.What)
}

// checkLayoutDirs refuses, as a *LayoutNotDirError, an entry of the
// project's layout that is not a directory: projects/, the project's
// directory, then each of dirs (some of the project's sessions, tasks and
// spill directories). It runs before a command writes, or calls a model,
// so that such an entry costs nothing; a missing directory, or one that
// cannot be inspected, is left to the command. A symbolic link at
// projects/ or the project's directory is refused first (safefs.CheckProjectDirs);
// one below them is left to the stores, which refuse it.
func (p project) checkLayoutDirs(dirs ...string) error {
	if err := safefs.CheckProjectDirs(p.paths); err != nil {
		return err
	}
	projectDir := filepath.Dir(p.paths.SessionsDir)
	check := []layoutDir{
		{"the projects directory", filepath.Dir(projectDir)},
		{"the directory of project " + p.paths.Hash, projectDir},
	}
	for _, d := range dirs {
		check = append(check, layoutDir{"the project's " + filepath.Base(d) + " directory", d})
	}
	return notDirIn(check)
}

// A layoutDir is a directory of the layout: what it is, and its path.
type layoutDir struct{ what, path string }

// notDirIn returns a *LayoutNotDirError for the first of dirs that exists
// and is neither a directory nor a symbolic link (left to the stores,
// which refuse it), nil when there is none.
func notDirIn(dirs []layoutDir) error {
	for _, c := range dirs {
		if info, err := os.Lstat(c.path); err == nil && !info.IsDir() && info.Mode()&fs.ModeSymlink == 0 {
			return &LayoutNotDirError{Path: c.path, What: c.what, Mode: info.Mode()}
		}
	}
	return nil
}

// checkSessionDirs refuses, as a *LayoutNotDirError, something other than
// a directory where a run keeps one for its session: the shared task list
// that LITE_AGENT_TASK_LIST_ID names (default namespace only), and for a
// session continued (id, "" for a new one) its own task list and its
// context archive. Like checkLayoutDirs, it runs before the run writes or
// calls a model.
func (p project) checkSessionDirs(id string) error {
	var check []layoutDir
	list := ""
	if p.paths.Namespace == storage.DefaultNamespace {
		list = os.Getenv(liteagent.TaskListEnv)
	}
	switch {
	case list != "" && storage.ValidateID(list) == nil:
		check = append(check, layoutDir{"the shared task list " + list, filepath.Join(p.paths.TasksDir, list)})
	case list == "" && id != "":
		check = append(check, layoutDir{"the task list of session " + id, filepath.Join(p.paths.TasksDir, id)})
	}
	if id != "" {
		check = append(check, layoutDir{"the context archive of session " + id, storage.SessionContextDir(p.paths.SessionsDir, id)})
	}
	return notDirIn(check)
}
