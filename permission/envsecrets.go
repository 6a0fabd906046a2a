package permission

import (
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
)

// withEnvSecrets returns g, or a copy of it whose secret locations also
// hold those the bash line's environment moves out of the home (see
// [secretpaths.EnvCredentials]): with GNUPGHOME=/srv/gnupg, a line that
// reads /srv/gnupg/private-keys-v1.d/k.key reads a private key as much as
// one that reads ~/.gnupg/private-keys-v1.d/k.key (gatecred67). The
// environment is GateOptions.BashEnv's, read again for each line, or the
// gate process's own when that is not set.
func (g *Gate) withEnvSecrets() *Gate {
	env := g.bashEnv()
	if g.opts.BashEnv == nil {
		env = os.Environ()
	}
	var extra []string
	for _, p := range secretpaths.EnvCredentials(env) {
		// A value that holds the workdir or the home (GNUPGHOME=/, a
		// variable set to the project) is no credential store of its
		// own: it would make every read ask.
		if g.workdir != "" && pathmatch.Within(g.workdir, p) || g.home != "" && pathmatch.Within(g.home, p) {
			continue
		}
		if !slices.Contains(g.secrets, p) {
			extra = append(extra, p)
		}
	}
	if len(extra) == 0 {
		return g
	}
	c := *g
	c.secrets = append(slices.Clip(g.secrets), extra...)
	c.line = nil // made for g's secrets
	return &c
}

// secretVars names the variables a bash line must not print:
// GateOptions.SecretEnv's, and those of the line's environment whose value
// is a URL with a password in it (HTTPS_PROXY=http://u:pw@proxy:3128,
// PIP_INDEX_URL=https://u:token@host/simple), whatever their names say,
// as the sandbox keeps them from commands (see
// [secretpaths.CredentialValue]). The environment is GateOptions.BashEnv's,
// read again for each line, or the gate process's own when that is not set.
func (g *Gate) secretVars() []string {
	env := g.bashEnv()
	if g.opts.BashEnv == nil {
		env = os.Environ()
	}
	names := g.opts.SecretEnv
	for _, kv := range env {
		if name, v, ok := strings.Cut(kv, "="); ok && secretpaths.CredentialValue(v) && !slices.Contains(names, name) {
			names = append(slices.Clip(names), name)
		}
	}
	return names
}

// withSecretSet returns a copy of g whose secret locations are resolved
// through symbolic links once, for the checks of one bash line: a word
// is checked against every location, and resolving each location again
// for each word made a line of 200 file names take seconds to decide.
func (g *Gate) withSecretSet() *Gate {
	c := *g
	fs := pathmatch.NewLookups()
	c.line = &lineLookups{fs: fs, secrets: fs.NewSet(g.secrets), protected: fs.NewSet(g.protected), secretWord: map[string]bool{}}
	return &c
}

// lineLookups holds, for the checks of one bash line, what they look up
// on the file system again and again: the names the walks of paths met
// and the directories they read (fs), the secret locations and the
// protected paths prepared for [pathmatch.Set.Hits] once, and which words
// name a secret (secretWord, keyed by the directories and the word; see
// [Gate.namesSecretWord]). The checks of one line see the file system as
// it is when the line is decided, once; a word checked by several of them
// (each argument is checked as a path, then as a format, then as a piece
// of printed text) costs one walk of its path. The mutex keeps a gate
// safe should a check ever run beside another.
type lineLookups struct {
	fs                 *pathmatch.Lookups
	secrets, protected *pathmatch.Set
	mu                 sync.Mutex
	secretWord         map[string]bool
}

// hitsSecretLocation reports whether target, lexically or resolved,
// names one of g's secret locations or lies beneath one (with ancestors,
// also whether it is a directory holding one): [pathmatch.Hits] on
// g.secrets, prepared once for a bash line when withSecretSet made g.
func (g *Gate) hitsSecretLocation(target string, ancestors bool) bool {
	if g.line != nil {
		return g.line.secrets.HitsResolved(target, g.lookups().Resolve(target), ancestors)
	}
	return pathmatch.Hits(target, g.secrets, ancestors)
}

// lookups returns the file system lookups of g's bash line; nil (each
// name looked up afresh) outside one.
func (g *Gate) lookups() *pathmatch.Lookups {
	if g.line == nil {
		return nil
	}
	return g.line.fs
}
