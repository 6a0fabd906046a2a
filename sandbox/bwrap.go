package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
)

// probeTimeout bounds the probe that NewBubblewrap runs.
const probeTimeout = 30 * time.Second

// Bubblewrap is a [Sandbox] that runs commands under bubblewrap (bwrap).
// See the package documentation for what a command sees. The mounts are
// planned at each Wrap from the paths as they are then, so a protected
// file created after construction is protected from the next command on.
// A Bubblewrap is safe for concurrent use.
type Bubblewrap struct {
	bwrap  string
	opts   Options // cleaned, absolute; slices owned
	userNS bool    // --unshare-user --disable-userns work here
	check  *repoCheck
}

var _ AfterRunner = (*Bubblewrap)(nil)

var _ Sandbox = (*Bubblewrap)(nil)

// NewBubblewrap returns a Bubblewrap with opts, after checking that bwrap
// exists and can start a sandbox with these options here (it runs "true"
// in one, without the read-only paths, so that it changes nothing on
// disk). It returns an [*OptionsError] for invalid options and an
// [*UnavailableError] (matching [ErrUnavailable]) when bwrap is missing or
// does not work on this host, for example where namespaces are not
// allowed.
func NewBubblewrap(ctx context.Context, opts Options) (*Bubblewrap, error) {
	o, err := cleanOptions(opts)
	if err != nil {
		return nil, err
	}
	bin := o.Bwrap
	if bin == "" {
		bin = "bwrap"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, &UnavailableError{Program: bin, Reason: "not found (install the bubblewrap package)", Err: err}
	}
	b := &Bubblewrap{bwrap: path, opts: o, userNS: true, check: newRepoCheck(o, time.Now())}
	if err := b.probe(ctx); err != nil {
		// Some hosts forbid user namespaces but allow the others.
		b.userNS = false
		if err2 := b.probe(ctx); err2 != nil {
			return nil, err
		}
	}
	return b, nil
}

// probe runs true in the sandbox. It leaves the protected paths out, so
// that building a sandbox creates no mount point in the workdir.
func (b *Bubblewrap) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", "exit 0")
	if p, err := exec.LookPath("true"); err == nil {
		cmd = exec.CommandContext(ctx, p)
	}
	cmd.Dir = b.opts.Workdir
	probe := *b
	probe.opts.ReadOnly, probe.opts.ReadOnlyFiles = nil, nil
	if err := probe.Wrap(cmd); err != nil {
		return err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Start()
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		reason, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
		if reason == "" {
			reason = err.Error()
		}
		return &UnavailableError{Program: "bwrap", Reason: reason, Err: err}
	}
	return nil
}

// cleanOptions validates opts and returns a copy with clean paths.
func cleanOptions(opts Options) (Options, error) {
	if opts.Workdir == "" {
		return Options{}, &OptionsError{Field: "Workdir", Problem: "required"}
	}
	clean := func(field string, ps []string) ([]string, error) {
		out := make([]string, 0, len(ps))
		for _, p := range ps {
			if !filepath.IsAbs(p) {
				return nil, &OptionsError{Field: field, Path: p, Problem: "not an absolute path"}
			}
			out = append(out, filepath.Clean(p))
		}
		return out, nil
	}
	wd, err := clean("Workdir", []string{opts.Workdir})
	if err != nil {
		return Options{}, err
	}
	o := Options{Workdir: wd[0], Network: opts.Network, AllowUnixSockets: opts.AllowUnixSockets, Bwrap: opts.Bwrap,
		HiddenEnv: slices.Clone(opts.HiddenEnv), HideCredentialEnv: opts.HideCredentialEnv}
	for _, h := range opts.WorktreeHooks {
		if h == "" || filepath.IsAbs(h) {
			return Options{}, &OptionsError{Field: "WorktreeHooks", Path: h, Problem: "not a relative path"}
		}
		o.WorktreeHooks = append(o.WorktreeHooks, filepath.Clean(h))
	}
	if o.Writable, err = clean("Writable", opts.Writable); err != nil {
		return Options{}, err
	}
	if o.ReadOnly, err = clean("ReadOnly", opts.ReadOnly); err != nil {
		return Options{}, err
	}
	if o.ReadOnlyFiles, err = clean("ReadOnlyFiles", opts.ReadOnlyFiles); err != nil {
		return Options{}, err
	}
	if o.Hidden, err = clean("Hidden", opts.Hidden); err != nil {
		return Options{}, err
	}
	for _, w := range append([]string{o.Workdir}, o.Writable...) {
		if w == "/" {
			return Options{}, &OptionsError{Field: "Writable", Path: w, Problem: "the root cannot be writable"}
		}
		for _, h := range o.Hidden {
			if within(w, h) || within(canonical(w), canonical(h)) {
				return Options{}, &OptionsError{Field: "Hidden", Path: h, Problem: fmt.Sprintf("contains the writable directory %q", w)}
			}
		}
	}
	return o, nil
}

// Wrap rewrites cmd to run under bwrap. cmd.Dir ("" means the workdir)
// becomes the command's directory inside the sandbox. Wrap fails if cmd
// was started already, if exec.Command could not find its program, or if
// the workdir is gone.
func (b *Bubblewrap) Wrap(cmd *exec.Cmd) error {
	switch {
	case cmd.Process != nil:
		return errors.New("sandbox: command already started")
	case cmd.Err != nil:
		return cmd.Err
	case cmd.Path == "":
		return errors.New("sandbox: command has no path")
	}
	dir := cmd.Dir
	if dir == "" {
		dir = b.opts.Workdir
	}
	prog := cmd.Path
	if !filepath.IsAbs(prog) {
		prog = filepath.Join(dir, prog)
	}
	args, err := b.args(dir)
	if err != nil {
		return err
	}
	var filter *os.File
	if bpf, ok := seccompFilter(!b.opts.AllowUnixSockets); ok {
		if filter, err = pipeWith(bpf); err != nil {
			return fmt.Errorf("sandbox: seccomp filter: %w", err)
		}
		args = append(args, "--seccomp", strconv.Itoa(3+len(cmd.ExtraFiles)))
	}
	var argv []string
	if len(cmd.Args) > 1 {
		argv = cmd.Args[1:]
	}
	cmd.Args = slices.Concat([]string{b.bwrap}, args, []string{"--", prog}, argv)
	cmd.Path = b.bwrap
	if len(b.opts.HiddenEnv) > 0 || b.opts.HideCredentialEnv {
		env := cmd.Env
		if env == nil {
			env = os.Environ()
		}
		cmd.Env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
			name, value, _ := strings.Cut(kv, "=")
			return slices.Contains(b.opts.HiddenEnv, name) ||
				(b.opts.HideCredentialEnv && (secretpaths.CredentialVar(name) || secretpaths.CredentialValue(value)))
		})
	}
	if filter != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, filter)
	}
	return nil
}

// pipeWith returns the read end of a pipe that holds data, which must fit
// in the pipe's buffer, and then ends.
func pipeWith(data []byte) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// args returns bwrap's options for a command starting in dir.
func (b *Bubblewrap) args(dir string) ([]string, error) {
	wd := canonical(b.opts.Workdir)
	if fi, err := os.Stat(wd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("sandbox: workdir %s is not a directory", b.opts.Workdir)
	}
	roots := []string{wd}
	for _, w := range b.opts.Writable {
		c := canonical(w)
		if fi, err := os.Stat(c); err == nil && fi.IsDir() && !slices.Contains(roots, c) {
			roots = append(roots, c)
		}
	}
	sortByDepth(roots)

	a := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}
	for _, r := range roots {
		a = append(a, "--bind", r, r)
	}
	for _, m := range planProtected(roots, b.opts.ReadOnly, b.opts.ReadOnlyFiles) {
		switch m.kind {
		case emptyFile:
			a = append(a, "--ro-bind", "/dev/null", m.path)
		case pin:
			a = append(a, "--bind", m.path, m.path)
		case readOnly:
			a = append(a, "--ro-bind", m.path, m.path)
		case emptyReadOnly:
			a = append(a, "--tmpfs", m.path, "--remount-ro", m.path)
		}
	}
	var hidden []string
	hiddenFiles := map[string]bool{}
	for _, h := range b.opts.Hidden {
		c := canonical(h)
		fi, err := os.Stat(c)
		if err != nil || slices.Contains(hidden, c) {
			continue // nothing to hide
		}
		hiddenFiles[c] = !fi.IsDir()
		if within(c, "/tmp") && !slices.ContainsFunc(roots, func(r string) bool { return within(c, r) }) {
			continue // the private /tmp hides it already
		}
		if slices.ContainsFunc(roots, func(r string) bool { return within(r, c) }) {
			return nil, fmt.Errorf("sandbox: hidden directory %s contains the writable directory", h)
		}
		hidden = append(hidden, c)
	}
	sortByDepth(hidden)
	for _, h := range hidden {
		if hiddenFiles[h] {
			a = append(a, "--ro-bind", "/dev/null", h)
		} else {
			a = append(a, "--tmpfs", h, "--remount-ro", h)
		}
	}
	a = append(a, "--unshare-pid", "--unshare-ipc", "--unshare-uts")
	if !b.opts.Network {
		a = append(a, "--unshare-net")
	}
	if b.userNS {
		a = append(a, "--unshare-user", "--disable-userns")
	}
	// The host's TMPDIR may name a directory the sandbox does not show.
	a = append(a, "--setenv", "TMPDIR", "/tmp")
	a = append(a, "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--chdir", dir)
	return a, nil
}

// A mountKind is what planProtected mounts at a path.
type mountKind int

const (
	pin           mountKind = iota // the directory bound onto itself, writable, so it cannot be renamed or removed
	readOnly                       // the path bound onto itself read-only
	emptyReadOnly                  // an empty read-only tmpfs over a missing name
	emptyFile                      // /dev/null bound read-only over a missing file's name
)

type mount struct {
	kind mountKind
	path string
}

// planProtected returns the mounts that keep each protected path inside a
// writable root read-only, parents before children. A missing one of
// files is created first (see createFile), or, if that fails, right under
// a root covered by an empty file.
func planProtected(roots, protected, files []string) []mount {
	plan := map[string]mountKind{}
	add := func(p string, k mountKind) {
		if old, ok := plan[p]; !ok || k > old {
			plan[p] = k
		}
	}
	for _, p := range slices.Concat(protected, files) {
		isFile := slices.Contains(files, p)
		// A symbolic link on the way to p, in a writable root, could be
		// pointed elsewhere by the command, and p's readers (git,
		// lite-agent) would follow it there: keep the directory that holds
		// the link read-only, the root itself if need be.
		for q := p; ; {
			parent := filepath.Dir(q)
			if parent == q {
				break
			}
			if fi, err := os.Lstat(q); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				if d := canonical(parent); slices.ContainsFunc(roots, func(r string) bool { return within(d, r) }) {
					add(d, readOnly)
				}
			}
			q = parent
		}
		c := canonicalParent(p)
		var root string
		for _, r := range roots {
			if within(c, r) && len(r) > len(root) {
				root = r
			}
		}
		if root == "" {
			continue // on the read-only root, or in the private /tmp
		}
		if c == root {
			add(c, readOnly)
			continue
		}
		rel, err := filepath.Rel(root, c)
		if err != nil {
			continue
		}
		parts := strings.Split(rel, string(filepath.Separator))
		cur := root
	walk:
		for i, part := range parts {
			next := filepath.Join(cur, part)
			fi, err := os.Lstat(next)
			last := i == len(parts)-1
			switch {
			case errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink != 0 && last):
				// A missing name, or a last name that is a symbolic link
				// the command could replace: keep its directory read-only,
				// or, right under the root, cover a missing name; a link
				// there keeps the root read-only (above).
				if err != nil && isFile && last && createFile(next) {
					add(next, readOnly)
				} else if cur != root {
					add(cur, readOnly)
				} else if err != nil && isFile && last {
					add(next, emptyFile)
				} else if err != nil {
					add(next, emptyReadOnly)
				} else if t := canonical(next); within(t, root) {
					add(t, readOnly)
				}
			case err != nil:
				add(cur, readOnly) // cannot tell: keep what holds it read-only
			case last:
				add(next, readOnly)
			case fi.IsDir():
				add(next, pin)
				cur = next
				continue
			default:
				add(cur, readOnly) // a file where a directory should be
			}
			break walk
		}
	}
	var ro, out []mount
	for p, k := range plan {
		if k != pin {
			ro = append(ro, mount{k, p})
		}
	}
	for p, k := range plan {
		// Below a read-only directory nothing more is needed.
		if slices.ContainsFunc(ro, func(m mount) bool { return m.path != p && within(p, m.path) }) {
			continue
		}
		out = append(out, mount{k, p})
	}
	slices.SortFunc(out, func(x, y mount) int {
		if d := depth(x.path) - depth(y.path); d != 0 {
			return d
		}
		return strings.Compare(x.path, y.path)
	})
	return out
}

// createFile creates the missing file p, so that it can be bound
// read-only without making its directory read-only: empty, or, for the
// commondir of a git directory, "." (the git directory itself, which git
// reads as it reads no commondir; an empty one it refuses). It reports
// whether it did.
func createFile(p string) bool {
	var data []byte
	if filepath.Base(p) == "commondir" && exists(filepath.Join(filepath.Dir(p), "HEAD")) {
		data = []byte(".\n")
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return false
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
		return false
	}
	return true
}

// within reports whether p is dir or lies beneath it. Both must be clean.
func within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// depth counts the names in a clean absolute path.
func depth(p string) int { return strings.Count(p, string(filepath.Separator)) }

func sortByDepth(ps []string) {
	slices.SortFunc(ps, func(x, y string) int {
		if d := depth(x) - depth(y); d != 0 {
			return d
		}
		return strings.Compare(x, y)
	})
}

// canonical resolves the symbolic links of the longest existing prefix of
// the clean absolute path p and joins the rest to it.
func canonical(p string) string {
	rest := ""
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// canonicalParent resolves the directory of p, keeping its last name, so
// that a last name that is a symbolic link stays visible as one.
func canonicalParent(p string) string {
	dir := filepath.Dir(p)
	if dir == p {
		return p
	}
	return filepath.Join(canonical(dir), filepath.Base(p))
}
