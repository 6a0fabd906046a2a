package permission

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"

	"github.com/lite-agent/lite-agent-go/storage"
)

// A BindError reports that [FilePolicy.Bind] refused an agent's workdir or
// storage because the policy was made (or bound) with another: its rule
// files would not be the agent's.
type BindError struct {
	// Field names the option that differs: "Workdir", "Storage.Namespace",
	// "Storage.Home" or "Storage.Codec".
	Field string
	// Policy and Agent are the two values: absolute paths, namespaces or
	// codec ids ("" for no codec).
	Policy, Agent string
}

// Error names the field and both values.
func (e *BindError) Error() string {
	return fmt.Sprintf("permission: the file policy's %s %q differs from the agent's %q", e.Field, e.Policy, e.Agent)
}

// Bind makes fp the policy of an agent whose workdir is workdir (absolute)
// and whose storage is st (its namespace and data home resolved, as in
// storage.ProjectPaths, and its codec): the options fp was made with that
// were left zero (Workdir, Storage.Namespace, Storage.Home with the
// deprecated Home, Storage.Codec) take the agent's values, and the rule
// files and workspace are resolved and loaded again when that changes
// them (a policy of [NewUnboundFilePolicy] loads its files here for the
// first time, from the agent's paths only). liteagent.New calls it for a
// *FilePolicy given as Options.Permission, so that the policy reads the
// agent's files without repeating its Workdir and Storage.
//
// An option fp was made with that differs from the agent's is a
// *[BindError], and so is, once fp is bound, an agent with other values:
// a FilePolicy serves one project. A rule file at the new paths that
// cannot be loaded is the *[ConfigError] of [NewFilePolicy]. Either way fp
// is unchanged. Binding again to the same values changes nothing.
//
// Bind is [FilePolicy.BindContext] with context.Background().
func (fp *FilePolicy) Bind(workdir string, st storage.Options) error {
	return fp.BindContext(context.Background(), workdir, st)
}

// BindContext is [FilePolicy.Bind] with a ctx, looked at before anything
// is resolved or read (the rule files are a few, each at most
// [MaxRuleFileSize]): a ctx done then returns its error, wrapped, and
// leaves fp unchanged, its files unread.
func (fp *FilePolicy) BindContext(ctx context.Context, workdir string, st storage.Options) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("permission: bind the file policy: %w", err)
	}
	fp.mu.Lock()
	defer fp.mu.Unlock()
	set := fp.files.Load()
	opts, ownDir := fp.opts, ""
	if set != nil {
		opts, ownDir = set.opts, set.ws.dir
	} else if opts.Workdir != "" {
		// Unbound and unused: the workdir given, made absolute as the
		// workspace would make it.
		ownDir, _ = filepath.Abs(opts.Workdir)
	}
	opts, changed, err := inherit(opts, ownDir, workdir, st)
	if err != nil || (!changed && fp.loaded) {
		return err
	}
	if changed || set == nil {
		if set, err = resolveFiles(opts); err != nil {
			return err
		}
	}
	p, stamps, files, err := fp.load(set)
	if err != nil {
		return err
	}
	fp.files.Store(set)
	fp.current, fp.stamps, fp.loaded = p, stamps, true
	fp.status = Status{Files: files, LoadedAt: fp.now(), Reloads: fp.status.Reloads}
	return nil
}

// inherit returns opts with the zero Workdir and Storage fields set to the
// agent's, and whether that changed any; a field set to another value is a
// *BindError. ownDir is the absolute form of opts.Workdir.
func inherit(opts FileOptions, ownDir, workdir string, st storage.Options) (FileOptions, bool, error) {
	changed := false
	agentWD, err := filepath.Abs(workdir)
	if err != nil {
		return opts, false, fmt.Errorf("permission: workspace: %w", err)
	}
	if opts.Workdir == "" {
		opts.Workdir, changed = agentWD, true
	} else if ownDir != agentWD {
		return opts, false, &BindError{Field: "Workdir", Policy: ownDir, Agent: agentWD}
	}
	agentNS := st.Namespace
	if agentNS == "" {
		agentNS = storage.DefaultNamespace
	}
	if opts.Storage.Namespace == "" {
		opts.Storage.Namespace, changed = agentNS, true
	} else if opts.Storage.Namespace != agentNS {
		return opts, false, &BindError{Field: "Storage.Namespace", Policy: opts.Storage.Namespace, Agent: agentNS}
	}
	ownHome := cmp.Or(opts.Storage.Home, opts.Home) // the deprecated Home counts too
	if st.Home != "" {
		agentHome, err := filepath.Abs(st.Home)
		if err != nil {
			return opts, false, fmt.Errorf("permission: home: %w", err)
		}
		if ownHome == "" {
			opts.Storage.Home, changed = agentHome, true
		} else if abs, err := filepath.Abs(ownHome); err != nil || abs != agentHome {
			return opts, false, &BindError{Field: "Storage.Home", Policy: ownHome, Agent: agentHome}
		} else {
			opts.Storage.Home = abs
		}
		opts.Home = "" // folded into Storage.Home
	}
	agentCodec, err := codecID(st.Codec)
	if err != nil {
		return opts, false, err
	}
	if opts.Storage.Codec == nil {
		if st.Codec != nil {
			opts.Storage.Codec, changed = st.Codec, true
		}
	} else if own, err := codecID(opts.Storage.Codec); err != nil || own != agentCodec {
		return opts, false, &BindError{Field: "Storage.Codec", Policy: own, Agent: agentCodec}
	}
	return opts, changed, nil
}

// codecID returns the ID of c, or "" for nil; an invalid codec is the
// *storage.Error of storage.ValidateCodec.
func codecID(c storage.Codec) (string, error) {
	if c == nil {
		return "", nil
	}
	frozen, err := storage.FreezeCodec(c)
	if err != nil {
		return "", err
	}
	return frozen.ID(), nil
}
