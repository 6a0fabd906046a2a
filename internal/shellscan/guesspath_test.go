package shellscan

import (
	"os"
	"path/filepath"
	"testing"
)

// TestGuessedPathTheLineWrote checks that a command the analysis does not
// model, given the path of a file the line wrote, is opaque: it may run
// it (python-dotenv's dotenv run ./gradlew ran the line's code in real
// bash after printf … > gradlew rewrote the project's executable), and no
// rule sees the file run. review65g.
func TestGuessedPathTheLineWrote(t *testing.T) {
	dir := t.TempDir()
	// The project's executables: a write keeps their mode.
	for _, name := range []string{"gradlew", "red", "sub/run"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range []string{
		`printf '#!/bin/sh\nrm -rf ~\n' > gradlew; dotenv run ./gradlew`,
		`printf 'rm -rf ~\n' >> gradlew && dotenv run -- ./gradlew`,
		`printf '#!/bin/sh\nrm -rf ~\n' > red; hyperfine ./red`,
		`cd sub && printf 'rm -rf ~\n' > run && tsp ./run`,
	} {
		if a := analyzeBash(line, "/home/u", dir); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque (units %v)", line, a.units)
		}
	}
	for _, line := range []string{
		`dotenv run ./gradlew`,
		`dotenv run -- ./gradlew build`,
		`printf x > out.txt && mytool out.txt`,
		`printf x > out.txt && mytool ./other.txt`,
		`printf x > out.txt && mytool ./out.txt`,
		`mytool ./a/b > log.txt`,
	} {
		if a := analyzeBash(line, "/home/u", dir); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %v", line, a.reasons)
		}
	}
}
