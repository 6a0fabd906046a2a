package permission

import (
	"os"
	"slices"

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
	c.secretSet = nil
	return &c
}

// withSecretSet returns a copy of g whose secret locations are resolved
// through symbolic links once, for the checks of one bash line: a word
// is checked against every location, and resolving each location again
// for each word made a line of 200 file names take seconds to decide.
func (g *Gate) withSecretSet() *Gate {
	c := *g
	c.secretSet = pathmatch.NewSet(g.secrets)
	return &c
}

// hitsSecretLocation reports whether target, lexically or resolved,
// names one of g's secret locations or lies beneath one (with ancestors,
// also whether it is a directory holding one): [pathmatch.Hits] on
// g.secrets, prepared once for a bash line when withSecretSet made g.
func (g *Gate) hitsSecretLocation(target string, ancestors bool) bool {
	if g.secretSet != nil {
		return g.secretSet.Hits(target, ancestors)
	}
	return pathmatch.Hits(target, g.secrets, ancestors)
}
