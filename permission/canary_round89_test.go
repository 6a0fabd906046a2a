//go:build linux

package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// round89Constructor is a header's code that runs when the program it is
// built into starts: it removes the canary.
const round89Constructor = "#include <unistd.h>\n__attribute__((constructor)) static void evil(void){ unlink(\"c\"); }\n"

// canaryRound89 are the lines of round 89 (a build pulling code from
// outside the project) that removed the canary in real bash under bwrap
// and that "allow bash" allowed: a header directory outside the project
// and the system's own holds a stdio.h that shadows the system's (or the
// q.h that q.c includes) and adds a constructor, which the built program
// runs. The fixture's ../evil and its parent (the project's "..") hold
// such headers.
var canaryRound89 = map[string][]string{
	"1-header-directories": {
		`gcc -I../evil -o t x.c && ./t`,
		`gcc -I ../evil -o t x.c && ./t`,
		`cc -I../evil -o t x.c && ./t`,
		`g++ -I../evil -o t -x c++ x.c && ./t`,
		`gcc -isystem ../evil -o t x.c && ./t`,
		`gcc -isystem../evil -o t x.c && ./t`,
		`gcc -iquote ../evil -o t q.c && ./t`,
		`gcc -idirafter ../evil -o t q.c && ./t`,
		`gcc -Xpreprocessor -I../evil -o t x.c && ./t`,
		`gcc -I$PWD/../evil -o t x.c && ./t`,
		`gcc -I/proc/self/cwd/../evil -o t x.c && ./t`,
		`gcc -I../evil -c x.c && gcc -o t x.o && ./t`,
		// The project's parent: whatever lies beside the project.
		`gcc -I.. -o t x.c && ./t`,
	},
}

// canaryRound89Ordinary stay allowed: header directories in the project
// and the system's.
var canaryRound89Ordinary = []string{
	`gcc -I. -o t x.c && ./t`, `gcc -Iinclude -Isub -c x.c`, `gcc -I/usr/include -o t x.c && ./t`,
	`cc -isystem /usr/local/include -c x.c`, `gcc -Isub/.. -o t x.c`,
}

func TestCanaryRound89(t *testing.T) {
	tooltest.Need(t, tooltest.CanaryTools, "git", "gcc", "g++")
	template := canaryTemplate(t)
	shadow := "#include_next <stdio.h>\n" + round89Constructor
	for name, content := range map[string]string{
		"work/x.c":     "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n",
		"work/q.c":     "#include \"q.h\"\nint main(void){return 0;}\n",
		"evil/stdio.h": shadow,
		"evil/q.h":     round89Constructor,
		"stdio.h":      shadow,
	} {
		p := filepath.Join(template, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkCanaryRoundIn(t, template, canaryRound89)
	checkOrdinary(t, template, canaryRound89Ordinary, nil)
}
