package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/termtext"
	"github.com/lite-agent/lite-agent-go/sandbox"
)

// The values of --sandbox.
const (
	sandboxAuto  = "auto"
	sandboxBwrap = "bwrap"
	sandboxOff   = "off"
)

// buildSandbox returns the sandbox --sandbox asks for, for project p:
// "bwrap" insists on bubblewrap (an error when it cannot start), "auto"
// uses it when it works and otherwise writes one notice line to errw and
// runs commands uncontained, "off" runs them uncontained.
func (f *agentFlags) buildSandbox(ctx context.Context, p project, errw io.Writer) (sandbox.Sandbox, error) {
	if f.sandbox == sandboxOff {
		return nil, nil
	}
	if f.sandbox != sandboxAuto && f.sandbox != sandboxBwrap {
		return nil, usagef("--sandbox must be auto, bwrap or off, not %q", f.sandbox)
	}
	opts := sandbox.ProjectOptions(p.paths, "")
	// The keys the flags name (--key-env, the audit log's) are secrets
	// whatever their names.
	for _, e := range append(slices.Clone(p.secretEnv), f.audit.KeyEnv()) {
		if e != "" && !slices.Contains(opts.HiddenEnv, e) {
			opts.HiddenEnv = append(opts.HiddenEnv, e)
		}
	}
	opts.Network = f.sandboxNet
	for _, dir := range f.sandboxWrite {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, usagef("--sandbox-write %q: %w", dir, err)
		}
		opts.Writable = append(opts.Writable, abs)
	}
	if f.sandbox == sandboxBwrap {
		b, err := sandbox.NewBubblewrap(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("--sandbox bwrap: %w", err)
		}
		return b, nil
	}
	sb, err := sandbox.Auto(ctx, opts)
	if errors.Is(err, sandbox.ErrUnavailable) {
		fmt.Fprintf(errw, "notice: commands run without a sandbox (%s); install bubblewrap, or pass --sandbox off to silence this\n", termtext.Line(err.Error()))
		return nil, nil
	}
	return sb, err
}
