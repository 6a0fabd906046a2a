package main

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"

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
	return project{
		paths:   p,
		opts:    opts,
		enc:     storage.Encoding{Codec: opts.Codec, Namespace: p.Namespace, ProjectID: p.Hash},
		managed: g.managed.value,
	}, nil
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
	ok, err := exists(p.paths.SessionsDir)
	if err != nil || !ok {
		return nil, err
	}
	return session.NewFileCheckpointer(p.paths.SessionsDir, session.FileOptions{Encoding: p.enc})
}

// writeJSON writes v as indented JSON followed by a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// errFailed marks a command that printed its findings and must exit 1
// without printing anything more.
type errFailed struct{ msg string }

func (e errFailed) Error() string { return e.msg }
