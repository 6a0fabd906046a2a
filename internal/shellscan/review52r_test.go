package shellscan

import "testing"

// Review review52r: a git push whose repository is given by --repo= has
// only refspecs for operands, so its first operand may delete (:main) or
// force (+main) a remote branch; a pandoc filter the line wrote, named
// with its directory in the next word, runs as a program; a linker script
// given to the compiler driver as -Tscript names what the linker writes.
// Everyday pushes, pandoc runs and builds stay clean.
func TestReview52rPushRepoFilterAndDriverScripts(t *testing.T) {
	opaque := []string{
		`git push --repo=origin +main`, `git push --repo=origin :main`,
		`git push --repo=https://github.com/x/y.git +HEAD:main`, `git push --rep=origin :old`,
		`echo x > f && chmod +x f && pandoc --filter ./f a.md`, `echo x > f; pandoc -F ./f a.md`,
		`echo x > f; pandoc --filte=./f a.md`, `echo x > f; pandoc --filter=f a.md`,
		`echo x > s.ld; gcc -o a a.c -Ts.ld`, `echo x > s.ld; cc -Ts.ld a.c`, `echo x > s.ld; clang -Ts.ld a.o`,
	}
	clean := []string{
		`git push --repo=origin main`, `git push --repo=origin HEAD:refs/heads/feature`, `git push origin main`,
		`pandoc --filter pandoc-crossref a.md -o a.html`, `pandoc -F ./f a.md`, `pandoc a.md -o a.html`,
		`gcc -Ts.ld -o a a.c`, `cc -o a a.c`,
	}
	checkRT57Lines(t, opaque, clean)
}

// The application factory of Flask's and gunicorn's documentation,
// called with no arguments (gunicorn "app:create_app()"), is the
// project's own code and stays clean; a call with arguments, or of
// another function (pip's main() reads the line's other words), asks.
func TestReview52rAppFactoryCall(t *testing.T) {
	opaque := []string{
		`gunicorn "pip._internal.cli.main:main()" install x`, `FLASK_APP='pip._internal.cli.main:main()' flask install x`,
		`gunicorn "app:create_app('x')"`, `gunicorn "subprocess:getoutput('x')"`, `flask --app "code:interact()" shell`,
		`gunicorn "app:create_app()x"`, `gunicorn "app:create_app(*[])"`, `gunicorn 'a(b):create_app()'`,
	}
	clean := []string{
		`gunicorn "app:create_app()"`, `gunicorn -w 4 'myproject:create_app()'`, `flask --app "hello:create_app()" run`,
		`hypercorn "src.app:create_app()"`, `gunicorn app:app`, `gunicorn --bind 0.0.0.0:8000 "pkg.wsgi:make_app()"`,
	}
	checkRT57Lines(t, opaque, clean)
}
