//go:build linux

package permission_test

import "testing"

// canaryKernelDirs cd through l, a link to /proc/self/cwd, which the
// kernel resolves to the shell's own directory at the cd, and read a
// link into ~/.ssh there by a relative path. Each printed the key in real
// bash and was allowed: the gate resolved the directory through its own
// /proc/self/cwd (caps helper's report, stop 55).
var canaryKernelDirs = []string{
	`cd l/sub; cat s/id_ed25519`, `cd -P l/sub; cat s/id_ed25519`, `cd l; cd sub; cat s/id_ed25519`,
	`cd l2/work/sub && cat s/id_ed25519`, `cd l && cat sub/s/id_ed25519`,
}

// kernelDirsOrdinary stay allowed.
var kernelDirsOrdinary = []string{`cd l/doc && cat a`, `cd doc && cat a`, `cd l && cat README`}

// TestCanaryKernelDirs checks that a relative read after a cd through a
// link to /proc/self/cwd is judged where the kernel takes it.
func TestCanaryKernelDirs(t *testing.T) {
	t.Parallel()
	home, wd := round84Fixture(t)
	decide := secretDecider(t, home, wd)
	wantPrintedAndAsked(t, decide, canaryKernelDirs, nil)
	wantQuietAndAllowed(t, decide, kernelDirsOrdinary)
}
