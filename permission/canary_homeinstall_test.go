//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCanaryHomeInstall runs installers that put a program where the
// user's PATH finds it, outside the workdir: go install writes
// ~/go/bin/m, which a later command (the user's own, in another shell)
// runs. Each line must be refused by both scenarios, and must write the
// program when run, so that the test can fail.
func TestCanaryHomeInstall(t *testing.T) {
	t.Parallel()
	goRun := goLineRunner(t)
	template := canaryTemplate(t)
	for _, line := range []string{
		goModule + `go install .`,
		goModule + `go install -trimpath .`,
		goModule + `GOOS=linux go install ./...`,
		// Through wrappers, at the second read of stop 38.
		goModule + `nice go install .`,
		goModule + `env CGO_ENABLED=0 go install .`,
		goModule + `command go install -v ./...`,
	} {
		// Each line in a fixture of its own, beside the others: most of a
		// go install is waiting for the go command's children.
		t.Run(line[len(goModule):], func(t *testing.T) {
			t.Parallel()
			root := canaryFixture(t, template)
			refusedEverywhere(t, root, line)
			bin := filepath.Join(root, "home", "go", "bin", "m")
			out := goRun(root, line)
			if _, err := os.Stat(bin); err != nil {
				t.Errorf("%q wrote no ~/go/bin/m when run: %v\n%s", line, err, out)
			}
		})
	}
}
