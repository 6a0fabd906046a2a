package permission_test

import (
	"path/filepath"
	"testing"
)

// A compiler's library directories outside the project and the system's
// own add code no check saw to what it links: gcc -o t x.c -L../lib
// -levil && ./t removed the canary in real bash under bwrap (libevil.a
// held a main) and was allowed; so do header directories there (round
// 89). Search directories in the project or the system's stay allowed.
func TestCompilerSearchDirsOutsideTheProjectAsk(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	home, wd := filepath.Join(root, "home"), filepath.Join(root, "work")
	writeSecretFiles(t, "int helper(void){return 1;}\n", filepath.Join(wd, "x.c"))
	decide := secretDecider(t, home, wd)
	wantDecisions(t, decide, []string{
		`gcc -o t x.c -L../lib -levil && ./t`, `gcc -o t x.c -L /tmp -levil && ./t`, `cc -o t x.c -L/var/tmp -le`,
		`gcc -o t x.c -L/home/u/lib -le`,
		`cd sub && gcc -o t ../x.c -L../../lib -le`,
		// Header directories too (round 89): ".." from the project's root
		// is outside it.
		`cc -I.. -L. -o prog x.c`, `gcc -I../include -c x.c`, `gcc -isystem /tmp/x -c x.c`,
	}, []string{
		`gcc -o t x.c && ./t`, `gcc -o t x.c -Llib -lfoo && ./t`, `gcc -I. -Iinclude -c x.c`,
		`gcc -I/usr/include/python3.11 -c x.c`, `gcc -o t x.c -L/usr/local/lib -lm && ./t`, `cc -isystem /opt/x/include -c x.c`,
		`cc -Isub/.. -L. -o prog x.c`, `gcc -Isub/../include -c x.c`,
	})
}
