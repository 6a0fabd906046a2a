package permission

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
	"github.com/lite-agent/lite-agent-go/storage"
)

// ManagedEnv names the environment variable that sets the managed
// permission file of the default namespace. Custom namespaces ignore it.
const ManagedEnv = "LITE_AGENT_MANAGED_PERMISSIONS"

// FileName is the name of the user and project permission files.
const FileName = "permissions.json"

// The layers of a FilePolicy, as they appear in [Verdict.Layer] and in rule
// ids ("<layer>:<id or index>").
const (
	LayerBase           = "base"
	LayerManaged        = "managed"
	LayerUser           = "user"
	LayerInline         = "inline"
	LayerProject        = "project"
	LayerSelfProtection = "self-protection"
)

// FileOptions configures [NewFilePolicy]. For a policy given to
// liteagent.New, Workdir and Storage are best left zero: they then take
// the agent's (see [FilePolicy.Bind]). The zero value of every field is a
// documented default.
type FileOptions struct {
	// Workdir is the project directory: the workspace the paths of calls
	// resolve against, and the place of the project config directory.
	// "" means the working directory until the policy is bound to an
	// agent (see [FilePolicy.Bind]), and then the agent's workdir.
	Workdir string
	// Storage selects the namespace and data home, as for the agent. The
	// namespace names the project config directory <workdir>/.<namespace>;
	// the home holds the user file. Zero fields mean the defaults until
	// the policy is bound to an agent, and then the agent's values; set
	// fields must equal the agent's. The Codec is not used, only
	// compared.
	Storage storage.Options
	// Home is the data home.
	//
	// Deprecated: set Storage.Home. A Home that differs from Storage.Home
	// is rejected.
	Home string

	// Default is the decision of the host layers (base, managed, user,
	// inline) when no rule matches; zero means Deny.
	Default Decision

	// ManagedFile is the managed layer's file. "" means the value of
	// LITE_AGENT_MANAGED_PERMISSIONS for the default namespace, and no
	// managed file for a custom namespace.
	ManagedFile string
	// DisableManaged turns the managed layer off, file and environment.
	DisableManaged bool
	// UserFile is the user layer's file; "" means <home>/permissions.json.
	UserFile string
	// DisableUser turns the user layer off.
	DisableUser bool
	// ProjectFile is the project layer's file; "" means
	// <workdir>/.<namespace>/permissions.json.
	ProjectFile string
	// DisableProject turns the project layer off.
	DisableProject bool

	// Base are host rules checked before every file (layer "base").
	Base []Rule
	// Inline are host rules checked after the user file (layer
	// "inline").
	Inline []Rule

	// HomeDir is the user's home directory, for ~ and $HOME in rules and
	// commands; "" means [os.UserHomeDir]. A relative one is made absolute
	// against the process's working directory when the policy is built.
	HomeDir string

	// OnReload, when set, is called after every reload after the first
	// load, successful or not, with the policy's status. It is called from
	// the goroutine whose Check or Reload reloaded, possibly from several
	// at once, and must not call Check or Reload.
	OnReload func(Status)
}

// Status describes the files a [FilePolicy] loaded.
type Status struct {
	// Files are the rule files that existed at the last successful load,
	// in layer order.
	Files []string
	// LoadedAt is when the rules were last loaded successfully.
	LoadedAt time.Time
	// Reloads counts the reloads after the first load, failed ones
	// included.
	Reloads int
	// Err is the error of the last load when it failed; the policy then
	// fails every check until the files are fixed.
	Err error
}

// A Source is one rule file of a FilePolicy.
type Source struct {
	// Layer is LayerManaged, LayerUser or LayerProject.
	Layer string
	// Path is the file's absolute path. It need not exist.
	Path string
}

// A FilePolicy is a [Policy] made of the permission files of a project:
// host layers (base rules, the managed file, the user file, inline rules)
// and the project file, which can only restrict. It reloads the files when
// they change and keeps them read-only to the agent's own tools. It is safe
// for concurrent use.
type FilePolicy struct {
	base     []Rule
	inline   []Rule
	def      Decision
	onReload func(Status)
	now      func() time.Time
	opts     FileOptions // what the policy was made with

	// files is what the Workdir and Storage decide: the sources and the
	// workspace; nil while a policy of NewUnboundFilePolicy has been
	// neither bound nor used. Bind replaces it, holding mu; readers that
	// need it consistent with the current policy hold mu too.
	files atomic.Pointer[fileSet]

	mu      sync.Mutex
	loaded  bool    // the files were loaded once, successfully or not
	stamps  []stamp // of the sources at the last load attempt
	current Policy  // nil after a failed load
	status  Status
}

// fileSet is what a FilePolicy's Workdir and Storage decide: the rule
// files, their protected spellings and the workspace rules resolve in.
type fileSet struct {
	opts    FileOptions // the options the set was resolved from
	sources []Source
	prot    []string // the sources' paths, lexical and real
	ws      *fsResolver
}

var _ Policy = (*FilePolicy)(nil)

// stamp identifies a version of a file.
type stamp struct {
	exists     bool
	mtime      int64
	ctime      int64
	size       int64
	dev, ino   uint64
	mode       fs.FileMode
	unreadable bool
}

// NewFilePolicy loads the permission files and returns their policy.
//
// The sources are, in order: the managed file (opts.ManagedFile, or
// LITE_AGENT_MANAGED_PERMISSIONS for the default namespace only), the user
// file <home>/permissions.json and the project file
// <workdir>/.<namespace>/permissions.json, with the paths resolved by
// [storage.ResolveProjectPaths]. Missing files are skipped. Each file must
// pass [DecodeRules]; rule ids become "<layer>:<id or index>" and missing
// descriptions "<layer> permission rule".
//
// The host policy is the base rules, the managed file, the user file and
// the inline rules, with opts.Default (deny unless set). The project policy
// is the project file's rules with a default of allow. The verdict is the
// more restrictive of the two, so a project file can deny or ask but never
// allow what the host policy does not: a project allow cannot beat a host
// deny, the default deny included.
//
// The project file must be a regular file reached without symbolic links:
// a project file that is a symbolic link (or lies in a config directory
// that is one) is refused, and so is any rule file that is not a regular
// file or is larger than [MaxRuleFileSize]. Every problem is a
// *[ConfigError] naming the file; NewFilePolicy then fails, and later
// reloads make Check fail, so a broken file always fails closed.
func NewFilePolicy(opts FileOptions) (*FilePolicy, error) {
	fp, err := newFilePolicy(opts)
	if err != nil {
		return nil, err
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	if _, err := fp.fileSetLocked(); err != nil {
		return nil, err
	}
	if err := fp.firstLoadLocked(); err != nil {
		return nil, err
	}
	return fp, nil
}

// NewUnboundFilePolicy returns the policy of [NewFilePolicy] without
// reading any file: the rule files are resolved and loaded when the policy
// is bound to an agent ([FilePolicy.Bind], which liteagent.New calls), or
// else when it is first used (Check, Reload or Sources), from the options
// as given. So a policy made for an agent reads only the files of the
// agent's workdir and data home, never those of the process's working
// directory or of the default home.
//
// It refuses at once only what is wrong in opts itself: an invalid
// Default, namespace or codec, a Home conflicting with Storage.Home, host
// rules that do not compile. A broken rule file is the *[ConfigError]
// (naming the file) of Bind or of the first use. Until then, [Status] is
// the zero Status.
func NewUnboundFilePolicy(opts FileOptions) (*FilePolicy, error) {
	if opts.Storage.Namespace != "" {
		if err := storage.ValidateNamespace(opts.Storage.Namespace); err != nil {
			return nil, fmt.Errorf("permission: %w", err)
		}
	}
	if opts.Storage.Codec != nil {
		if err := storage.ValidateCodec(opts.Storage.Codec); err != nil {
			return nil, fmt.Errorf("permission: %w", err)
		}
	}
	if opts.Home != "" || opts.Storage.Home != "" {
		// A data home given resolves without the environment; this
		// rejects an empty one and a deprecated Home that conflicts.
		//lint:ignore SA1019 the deprecated Home is passed on so that ResolveProjectPaths rejects one conflicting with Storage.Home
		if _, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: string(filepath.Separator), Storage: opts.Storage, Home: opts.Home}); err != nil {
			return nil, fmt.Errorf("permission: %w", err)
		}
	}
	return newFilePolicy(opts)
}

// newFilePolicy returns the policy of opts with no files resolved or
// loaded, after checking its default and host rules.
func newFilePolicy(opts FileOptions) (*FilePolicy, error) {
	def := opts.Default
	if def == 0 {
		def = Deny
	}
	if !def.Valid() {
		return nil, fmt.Errorf("permission: invalid default decision %d", def)
	}
	fp := &FilePolicy{
		base:     append([]Rule(nil), opts.Base...),
		inline:   append([]Rule(nil), opts.Inline...),
		def:      def,
		onReload: opts.OnReload,
		now:      time.Now,
		opts:     opts,
	}
	// The host rules must compile on their own, so that their errors do
	// not name a file. Compiling touches no file: any absolute workdir
	// serves.
	dir, err := filepath.Abs(opts.Workdir)
	if err != nil {
		dir = string(filepath.Separator)
	}
	ws := &fsResolver{dir: dir, homeDir: absHome(opts.HomeDir)}
	for _, layer := range []struct {
		name  string
		rules []Rule
	}{{LayerBase, fp.base}, {LayerInline, fp.inline}} {
		if _, err := compileLayer(ws, layer.name, layer.rules, Allow); err != nil {
			return nil, err
		}
	}
	return fp, nil
}

// fileSet returns the policy's files, resolving them from the options it
// was made with when neither a Bind nor an earlier use did.
func (fp *FilePolicy) fileSet() (*fileSet, error) {
	if set := fp.files.Load(); set != nil {
		return set, nil
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	return fp.fileSetLocked()
}

func (fp *FilePolicy) fileSetLocked() (*fileSet, error) {
	if set := fp.files.Load(); set != nil {
		return set, nil
	}
	set, err := resolveFiles(fp.opts)
	if err != nil {
		return nil, err
	}
	fp.files.Store(set)
	return set, nil
}

// firstLoadLocked loads the files for the first time: it is not a reload.
func (fp *FilePolicy) firstLoadLocked() error {
	fp.loaded = true
	return fp.loadLocked()
}

// resolveFiles resolves the rule files and the workspace of opts.
func resolveFiles(opts FileOptions) (*fileSet, error) {
	//lint:ignore SA1019 the deprecated Home is passed on so that ResolveProjectPaths rejects one conflicting with Storage.Home
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: opts.Workdir, Storage: opts.Storage, Home: opts.Home})
	if err != nil {
		return nil, fmt.Errorf("permission: %w", err)
	}
	ws, err := newFSResolver(opts.Workdir, opts.HomeDir)
	if err != nil {
		return nil, err
	}
	set := &fileSet{opts: opts, ws: ws}
	add := func(layer, p string) error {
		abs, err := filepath.Abs(p)
		if err != nil {
			return &ConfigError{File: p, Msg: "cannot make the path absolute", Err: err}
		}
		set.sources = append(set.sources, Source{Layer: layer, Path: abs})
		return nil
	}
	if !opts.DisableManaged {
		managed := opts.ManagedFile
		if managed == "" && paths.Namespace == storage.DefaultNamespace {
			managed = os.Getenv(ManagedEnv)
		}
		if managed != "" {
			if err := add(LayerManaged, managed); err != nil {
				return nil, err
			}
		}
	}
	if !opts.DisableUser {
		user := opts.UserFile
		if user == "" {
			user = filepath.Join(paths.Home, FileName)
		}
		if err := add(LayerUser, user); err != nil {
			return nil, err
		}
	}
	if !opts.DisableProject {
		project := opts.ProjectFile
		if project == "" {
			project = filepath.Join(paths.ProjectConfigDir, FileName)
		}
		if err := add(LayerProject, project); err != nil {
			return nil, err
		}
	}
	for _, s := range set.sources {
		set.prot = append(set.prot, s.Path)
		if real, err := realPath(s.Path); err == nil && real != s.Path {
			set.prot = append(set.prot, real)
		}
	}
	return set, nil
}

// Sources returns the rule files the policy reads, in layer order, whether
// they exist or not. Hosts can use them to configure an OS sandbox. For a
// policy of [NewUnboundFilePolicy] not yet bound, they are resolved from
// the options it was made with (nil if they cannot be).
func (fp *FilePolicy) Sources() []Source {
	set, err := fp.fileSet()
	if err != nil {
		return nil
	}
	return append([]Source(nil), set.sources...)
}

// Status returns the policy's status: the zero Status for a policy of
// [NewUnboundFilePolicy] that has not loaded its files yet.
func (fp *FilePolicy) Status() Status {
	fp.mu.Lock()
	defer fp.mu.Unlock()
	return fp.statusLocked()
}

func (fp *FilePolicy) statusLocked() Status {
	s := fp.status
	s.Files = append([]string(nil), s.Files...)
	return s
}

// Reload is [FilePolicy.ReloadContext] with context.Background().
func (fp *FilePolicy) Reload() error {
	return fp.ReloadContext(context.Background())
}

// ReloadContext reloads the files now, whether they changed or not. A
// failed reload makes every Check fail until a later reload succeeds. ctx
// is looked at before any file is read: a ctx done then returns its
// error, wrapped, and changes nothing (it is not a failed reload).
func (fp *FilePolicy) ReloadContext(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("permission: reload the rule files: %w", err)
	}
	fp.mu.Lock()
	if _, err := fp.fileSetLocked(); err != nil {
		fp.mu.Unlock()
		return err
	}
	if !fp.loaded {
		err := fp.firstLoadLocked()
		fp.mu.Unlock()
		return err
	}
	err := fp.reloadLocked()
	st := fp.statusLocked()
	fp.mu.Unlock()
	if fp.onReload != nil {
		fp.onReload(st)
	}
	return err
}

// Check implements [Policy]. It first denies writes and deletes of the
// rule files themselves, then reloads the files if any changed, then
// decides. A broken file makes it return the *[ConfigError].
func (fp *FilePolicy) Check(ctx context.Context, call Call) (Verdict, error) {
	if err := ctx.Err(); err != nil {
		return Verdict{}, err
	}
	files, err := fp.fileSet()
	if err != nil {
		return Verdict{}, err
	}
	if call.ws == nil {
		call.ws = newResolved(files.ws)
	}
	if v, ok := files.selfProtect(call); ok {
		return v, nil
	}
	p, err := fp.policy()
	if err != nil {
		return Verdict{}, err
	}
	return p.Check(ctx, call)
}

// policy returns the current policy, reloading first when a source
// changed.
func (fp *FilePolicy) policy() (Policy, error) {
	fp.mu.Lock()
	if !fp.loaded {
		err := fp.firstLoadLocked()
		p := fp.current
		fp.mu.Unlock()
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	stamps := fp.files.Load().stat()
	if equalStamps(stamps, fp.stamps) {
		p, err := fp.current, fp.status.Err
		fp.mu.Unlock()
		if p == nil {
			return nil, err
		}
		return p, nil
	}
	err := fp.reloadLocked()
	p := fp.current
	st := fp.statusLocked()
	fp.mu.Unlock()
	if fp.onReload != nil {
		fp.onReload(st)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (fp *FilePolicy) reloadLocked() error {
	fp.status.Reloads++
	return fp.loadLocked()
}

// stat returns the current stamps of the sources.
func (set *fileSet) stat() []stamp {
	out := make([]stamp, len(set.sources))
	for i, s := range set.sources {
		var fi fs.FileInfo
		var err error
		if s.Layer == LayerProject {
			fi, err = os.Lstat(s.Path)
		} else {
			fi, err = os.Stat(s.Path)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			out[i] = stamp{unreadable: true}
		default:
			out[i] = stampOf(fi)
		}
	}
	return out
}

func equalStamps(a, b []stamp) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] || a[i].unreadable {
			return false
		}
	}
	return true
}

// loadLocked reads every source and compiles the policy. On failure it
// clears the current policy, so that checks fail closed.
func (fp *FilePolicy) loadLocked() error {
	p, stamps, files, err := fp.load(fp.files.Load())
	fp.stamps = stamps
	if err != nil {
		fp.current = nil
		fp.status.Err = err
		return err
	}
	fp.current = p
	fp.status = Status{Files: files, LoadedAt: fp.now(), Reloads: fp.status.Reloads}
	return nil
}

func (fp *FilePolicy) load(set *fileSet) (Policy, []stamp, []string, error) {
	stamps := make([]stamp, len(set.sources))
	var files []string
	layers := map[string][]Rule{}
	var loadErr error
	fail := func(file string, err error) {
		var ce *ConfigError
		if errors.As(err, &ce) && ce.File == "" {
			ce.File = file
		}
		if loadErr == nil {
			loadErr = err
		}
	}
	for i, s := range set.sources {
		data, st, err := readSource(s)
		stamps[i] = st
		if err != nil {
			fail(s.Path, err)
			continue
		}
		if !st.exists {
			continue
		}
		files = append(files, s.Path)
		rules, err := DecodeRules(data)
		if err != nil {
			fail(s.Path, err)
			continue
		}
		rules = withLayer(s.Layer, rules)
		if _, err := compileLayer(set.ws, s.Layer, rules, Allow); err != nil {
			fail(s.Path, err)
			continue
		}
		layers[s.Layer] = rules
	}
	if loadErr != nil {
		return nil, stamps, nil, loadErr
	}
	var host []Rule
	host = append(host, withLayer(LayerBase, fp.base)...)
	host = append(host, layers[LayerManaged]...)
	host = append(host, layers[LayerUser]...)
	host = append(host, withLayer(LayerInline, fp.inline)...)
	main, err := compileLayer(set.ws, "", host, fp.def)
	if err != nil {
		return nil, stamps, nil, err
	}
	proj, err := compileLayer(set.ws, "", layers[LayerProject], Allow)
	if err != nil {
		return nil, stamps, nil, err
	}
	return &workspacePolicy{p: Compose(main, proj), r: set.ws}, stamps, files, nil
}

// compileLayer compiles rules (already given their ids and layers) for
// the workspace ws.
func compileLayer(ws *fsResolver, layer string, rules []Rule, def Decision) (Policy, error) {
	if layer == LayerBase || layer == LayerInline {
		rules = withLayer(layer, rules)
	}
	p, err := newPolicy(Options{Rules: rules, Default: def, Workdir: ws.dir, HomeDir: ws.homeDir})
	if err != nil {
		return nil, &ConfigError{Msg: strings.TrimPrefix(err.Error(), "permission: ")}
	}
	return p, nil
}

// withLayer returns copies of rules with the ids, descriptions and layer of
// a FilePolicy layer. Rules that already carry a layer are kept as they
// are.
func withLayer(layer string, rules []Rule) []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		if r.layer == "" {
			id := r.ID
			if id == "" {
				id = strconv.Itoa(i)
			}
			r.ID = layer + ":" + id
			if r.Description == "" {
				r.Description = layer + " permission rule"
			}
			r.layer = layer
		}
		out[i] = r
	}
	return out
}

// readSource reads one rule file. A missing file gives a zero stamp and no
// error.
func readSource(s Source) ([]byte, stamp, error) {
	nofollow := s.Layer == LayerProject
	if nofollow {
		if err := noSymlinks(s.Path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, stamp{}, nil
			}
			st := stamp{unreadable: true}
			if fi, lerr := os.Lstat(s.Path); lerr == nil {
				st = stampOf(fi)
			}
			return nil, st, err
		}
	}
	f, err := openRule(s.Path, nofollow)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, stamp{}, nil
	}
	if err != nil {
		return nil, stamp{unreadable: true}, &ConfigError{File: s.Path, Msg: "cannot open the file", Err: errors.Unwrap(err)}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, stamp{unreadable: true}, &ConfigError{File: s.Path, Msg: "cannot stat the file", Err: errors.Unwrap(err)}
	}
	st := stampOf(fi)
	if !fi.Mode().IsRegular() {
		return nil, st, &ConfigError{File: s.Path, Msg: "not a regular file"}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxRuleFileSize+1))
	if err != nil {
		return nil, st, &ConfigError{File: s.Path, Msg: "cannot read the file", Err: errors.Unwrap(err)}
	}
	if len(data) > MaxRuleFileSize {
		return nil, st, &ConfigError{File: s.Path, Msg: fmt.Sprintf("the file is larger than %d bytes", MaxRuleFileSize)}
	}
	return data, st, nil
}

// noSymlinks refuses a project file that is a symbolic link or whose
// directory is one. It returns an error wrapping fs.ErrNotExist when the
// file does not exist.
func noSymlinks(p string) error {
	for _, q := range []string{filepath.Dir(p), p} {
		fi, err := os.Lstat(q)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return &ConfigError{File: p, Msg: "cannot stat " + q, Err: errors.Unwrap(err)}
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return &ConfigError{File: p, Msg: "the project permission file must not be, or lie in, a symbolic link: " + q}
		}
	}
	return nil
}

// selfProtect denies changes to the rule files: a write_file or edit_file
// of one, a delete_file of one or of a directory holding one, and bash
// commands that write or delete them. A bash line that cannot be analyzed
// and mentions a rule file's name is asked about.
func (set *fileSet) selfProtect(call Call) (Verdict, bool) {
	deny := Verdict{Decision: Deny, Reason: "permission configuration is read-only to tools", RuleID: LayerSelfProtection, Layer: LayerSelfProtection}
	input := parseInput(call.Input)
	switch call.Name {
	case "write_file", "edit_file", "delete_file":
		v, _ := lookup(input, []string{"path"})
		p, ok := v.(string)
		if !ok {
			return Verdict{}, false
		}
		if set.hits(call.ws, p, call.Name == "delete_file") {
			return deny, true
		}
	case "bash":
		v, _ := lookup(input, []string{"command"})
		line, ok := v.(string)
		if !ok {
			return Verdict{}, false
		}
		a := call.ws.analyze(line)
		for _, acc := range a.Accesses {
			if acc.Mode == shellscan.Read {
				continue
			}
			for _, t := range targets(acc.Path, writeDirs(a)) {
				if set.hits(call.ws, t, acc.Mode == shellscan.Delete || acc.Tree) {
					return deny, true
				}
			}
		}
		if a.Opaque || a.Unlisted != "" {
			for _, s := range set.sources {
				if strings.Contains(line, filepath.Base(s.Path)) || strings.Contains(line, filepath.Base(filepath.Dir(s.Path))) {
					return Verdict{Decision: Ask, Reason: "the command may change permission configuration", RuleID: LayerSelfProtection, Layer: LayerSelfProtection}, true
				}
			}
		}
	}
	return Verdict{}, false
}

// hits reports whether the path p names a rule file or, with ancestors,
// a directory holding one. A write also hits the directory that holds a
// rule file, since a directory written there could replace it. The check
// is lexical and, where the path resolves, on the real path too (a path
// that cannot be resolved is denied by the workspace rules).
func (set *fileSet) hits(res *resolved, p string, ancestors bool) bool {
	abs := filepath.Clean(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(set.ws.dir, abs)
	}
	cands := []string{abs}
	if sp, err := res.spell(p); err == nil {
		for _, s := range append(sp.trusted, sp.other...) {
			s = filepath.FromSlash(s)
			if filepath.IsAbs(s) {
				cands = append(cands, s)
			}
		}
	}
	same := func(a, b string) bool {
		if set.ws.fold {
			return sameFolded(a, b)
		}
		return a == b
	}
	for _, c := range cands {
		for _, prot := range set.prot {
			if same(c, prot) || same(c, filepath.Dir(prot)) {
				return true
			}
			if ancestors {
				if rel, ok := within(c, prot); ok && rel != "." {
					return true
				}
				if set.ws.fold && strings.HasPrefix(pathmatch.FoldName(prot), pathmatch.FoldName(c)+string(filepath.Separator)) {
					return true
				}
			}
		}
	}
	return false
}
