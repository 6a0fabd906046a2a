//go:build linux

package permission_test

import (
	"testing"
)

// canaryRound87 are the lines of the lead's before-stop attack of stop 51
// (on round 84's fixture: the key in ~/.ssh/id_ed25519, the project beside
// the home) that read the key when run in real bash and that a policy
// allowing bash allowed.
var canaryRound87 = map[string][]string{
	// A path beneath a descriptor names a file in the directory the
	// command has open there, here the home, opened by a redirection the
	// line makes; the gate looked at /dev/fd of its own process.
	"1-beneath-a-descriptor": {
		`cat /dev/fd/3/.ssh/id_ed25519 3<~`,
		`cat /dev/fd/3/id_ed25519 3<~/.ssh`,
		`head /dev/fd/4/.ssh/id_ed25519 4<../home`,
		`cat /proc/self/fd/3/.ssh/id_ed25519 3<~`,
		`cat 3<~ < /dev/fd/3/.ssh/id_ed25519`,
		`cat /dev/stdin/.ssh/id_ed25519 < ~`,
		`ln -s /dev/fd f && cat f/3/.ssh/id_ed25519 3<~`,
	},
	// bash's cd takes the cleaned path (/proc/self/home) first and, as it
	// does not exist, the physical one: /proc/self/cwd/.. is the parent
	// of the directory the shell runs in. The analysis took the cleaned
	// one, so the relative read after it named no secret.
	"2-cd-through-proc": {
		`cd /proc/self/cwd/../home/.ssh; cat id_ed25519`,
		`cd /proc/self/cwd/../home && cat .ssh/id_ed25519`,
		`pushd /proc/self/cwd/../home/.ssh >/dev/null; cat id_ed25519`,
		`cd /proc/thread-self/cwd/../home/.ssh; cat id_ed25519`,
	},
}

// canaryRound87Ordinary stay allowed: descriptors read whole, and cd into
// the project through /proc/self/cwd.
var canaryRound87Ordinary = []string{
	`cat /dev/fd/0 < README`, `echo hi > /dev/stderr`, `cat /proc/self/status | head -1`,
	`cd /proc/self/cwd && cat README`, `cd /proc/self/cwd/sub; cat x`,
}

func TestCanaryRound87(t *testing.T) {
	t.Parallel()
	checkSecretRound(t, canaryRound87, canaryRound87Ordinary, true)
}
