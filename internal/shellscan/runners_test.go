package shellscan

import "testing"

// g58Opaque are lines stop 58 found allowed that run code the line wrote
// through a program the analysis did not model: an interpreter given the
// file (sbcl, racket, guile, tcc -run, papermill, dotnet x.dll), a server
// or tool that imports a module by name (gunicorn app:app), a build tool
// that builds and runs the project (cabal run, dotnet run, dune build),
// or that run a command as another user (gosu, su-exec).
var g58Opaque = []string{
	"echo x > x.lisp && sbcl --script x.lisp", "echo x > x.rkt && racket x.rkt", "echo x > x.scm && guile x.scm",
	"echo x > x.exs && elixir x.exs", "echo x > x.scala && scala x.scala", "echo x > x.kts && kotlin x.kts",
	"echo x > x.groovy && groovy x.groovy", "echo x > x.dart && dart run x.dart", "echo x > x.swift && swift x.swift",
	"echo x > x.hs && runghc x.hs", "echo x > x.ml && ocaml x.ml", "echo x > x.clj && clojure x.clj",
	"echo x > x.clj && bb x.clj", "echo x > x.cr && crystal run x.cr", "echo x > x.zig && zig run x.zig",
	"echo x > x.coffee && coffee x.coffee", "echo x > x.erl && escript x.erl", "echo x > x.raku && raku x.raku",
	"echo x > x.hy && hy x.hy", "echo x > x.go && yaegi x.go", "echo x > x.scm && csi -s x.scm",
	"echo x > x.fs && gforth x.fs", "echo x > x.pike && pike x.pike", "echo x > x.c && tcc -run x.c",
	"echo x > X.PY && runner X.PY", "echo x > x.ts && vite-node x.ts",
	"echo x > n.ipynb && jupyter nbconvert --execute n.ipynb", "echo x > n.ipynb && papermill n.ipynb o.ipynb",
	"echo x > x.dll && dotnet x.dll", "echo x > x.dll && dotnet exec x.dll", "echo x > x.wasm && wasmtime x.wasm",
	"echo x > x.py && tool --script=x.py",
	"echo x > app.py && gunicorn app:app", "echo x > app.py && uvicorn app:app", "echo x > x.py && hypercorn x:app",
	"echo x > x.py && flask --app x run", "echo x > x.py && celery -A x worker", "echo x > x.py && streamlit run x.py",
	"echo x > x.py && waitress-serve x:app", "echo x > x.py && daphne x:app", "echo x > x.py && locust",
	"echo x > jupyter_nbconvert_config.py && jupyter nbconvert --to html n.ipynb",
	"echo x > Main.hs && cabal run", "echo x > Main.hs && stack run", "echo x > Program.cs && dotnet run",
	"echo x > devbox.json && devbox run t", "echo x > dune && dune build", "echo x > build.zig && zig build",
	"echo x > Package.swift && swift build", "echo x > x.js && nodemon", "echo x > x.py && kernprof -l x.py",
	"gosu nobody ls", "su-exec root id", "gosu root touch x",
}

// g58Clean are lines that stay allowed: the same programs with no code
// the line wrote, and programs that only read the code file given them.
var g58Clean = []string{
	"gunicorn app:app", "cabal run", "dotnet run", "racket x.rkt", "dune build", "papermill n.ipynb o.ipynb",
	"echo x > a.txt && mytool a.txt", "echo x > a.go && gofmt -l a.go", "echo x > a.py && black a.py",
	"echo x > a.py && ruff check a.py", "echo x > a.sh && shellcheck a.sh", "echo x > a.c && clang-format -i a.c",
	"echo x > a.py && sha256sum a.py", "echo x > a.py && git add a.py",
	"echo x > x.scm && guile --version", "go test ./...", "npm test", "pytest", "make", "git commit -m x",
}

func TestG58RunnersOfWrittenCode(t *testing.T) {
	checkRT57Lines(t, g58Opaque, g58Clean)
}
