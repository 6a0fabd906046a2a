package shellscan

import "testing"

// A script the line writes and then runs with an interpreter the
// interpreters table does not hold, under any name, is code the gate has
// not read, as it is for python t.txt (round redteam132 found groovy,
// guile, runghc, elixir, swift, racket, sbcl --script, zx, tsx, ts-node,
// dart run, nim e, clojure, bb, escript, ocaml and nix-instantiate
// allowed). Running the project's own scripts stays clean, as python's.
func TestScriptRunnersRunWrittenCode(t *testing.T) {
	opaque := []string{
		`printf 'x' > t.txt && groovy t.txt`, `printf 'x' > t.txt && guile t.txt`, `printf 'x' > t.txt && runghc t.txt`,
		`printf 'x' > t.txt && elixir t.txt`, `printf 'x' > t.txt && swift t.txt`, `printf 'x' > t.txt && racket t.txt`,
		`printf 'x' > t.txt && sbcl --script t.txt`, `printf 'x' > t.txt && sbcl --script=t.txt`, `printf 'x' > t.txt && zx t.txt`,
		`printf 'x' > t.txt && tsx t.txt`, `printf 'x' > t.txt && ts-node t.txt`, `printf 'x' > t.txt && crystal run t.txt`,
		`printf 'x' > t.txt && nim e t.txt`, `printf 'x' > t.txt && dart run t.txt`, `printf 'x' > t.txt && clojure t.txt`,
		`printf 'x' > t.txt && bb t.txt`, `printf 'x' > t.txt && escript t.txt`, `printf 'x' > t.txt && ocaml t.txt`,
		`printf 'x' > t.txt && scheme --script t.txt`, `printf 'x' > t.txt && nix-instantiate --eval t.txt`,
		`printf 'x' > shell.nix && nix-shell`, `echo 'import Lib' > Main.hs && echo 'x' > Lib.hs && runghc Main.hs`,
		`echo x > lib.groovy && groovy main.groovy`, `cp /tmp/x.kts t.kts && kotlin t.kts`,
	}
	clean := []string{
		`groovy t.txt`, `runghc Main.hs`, `dart run bin/main.dart`, `nim e build.nims`, `tsx src/index.ts`,
		`echo x > out.txt && groovy main.groovy`, `groovy --version`, `elixir -v`,
	}
	checkRT57Lines(t, opaque, clean)
}
