//go:build linux

package permission_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/tooltest"
)

// canaryRound96 are round 96's lines (a compiler given paths outside the
// project), each of which removed the canary in real bash under bwrap.
// The fixture is round 89's (../evil holds a stdio.h shadowing the
// system's and an evil.h with a constructor, the project's parent such a
// stdio.h, the project's inc is a link to ../evil) with an "as" in ../evil
// that removes the canary, a libq.so in the project and one with a
// constructor in ../evil.
var canaryRound96 = map[string][]string{
	// Allowed before: a ".." after a link of the project was taken
	// lexically (inc/.. the project), where the kernel steps back from
	// where the link led (../evil/.., the project's parent).
	"1-link-then-parent": {
		`gcc -Iinc/.. -o t x.c && ./t`,
		`gcc -isystem inc/.. -o t x.c && ./t`,
		`cc -Iinc/../evil -o t x.c && ./t`,
	},
	// Guards, which asked before only as paths the compiler might write
	// outside the workdir: now as code from outside the project.
	"2-code-from-outside": {
		`gcc -B../evil -o t x.c`,
		`gcc -B ../evil/ -c x.c`,
		`gcc -Binc/ -c x.c`,
		`gcc -include ../evil/evil.h -o t x.c && ./t`,
		`gcc -include inc/../evil/evil.h -o t x.c && ./t`,
		`gcc -o t y.c -L. -lq -Wl,-rpath,../evil && ./t`,
		`gcc -o t y.c -L. -lq -Wl,-rpath,inc && ./t`,
		`gcc -o t y.c -L. -lq -Wl,-rpath,inc/../evil && ./t`,
		`gcc -o t y.c -L. -lq -Wl,-rpath,'$ORIGIN/../evil' && ./t`,
		`gcc -o t y.c -L. -lq -Xlinker -rpath -Xlinker ../evil && ./t`,
		`gcc -o t y.c -L. -lq -Wl,-R,../evil && ./t`,
	},
	// Guards for the directory a compiler runs in, now that a command's
	// directories are those the line's cd commands lead it to (a ".."
	// after cd into a link is the parent of where the link led).
	"3-after-cd": {
		`cd inc && gcc -I.. -o ../work/t ../work/x.c && ../work/t`,
		`cd sub && gcc -I../.. -o t ../x.c && ./t`,
		`cd sub; cd ..; gcc -I.. -o t x.c && ./t`,
		`(cd sub) && gcc -I.. -o t x.c && ./t`,
	},
	// Guards for cmake, which asked as paths it might write outside the
	// workdir: code from outside the project (../other's CMakeLists.txt,
	// ../evil/x.cmake, each of which removes the canary).
	"4-cmake": {
		`cmake -S ../other -B build`,
		`mkdir -p b && cd b && cmake ../../other`,
		`cmake -C ../evil/x.cmake -S . -B build`,
		`cmake -DCMAKE_TOOLCHAIN_FILE=../evil/x.cmake -S . -B build`,
		`cmake -D CMAKE_PROJECT_INCLUDE=../evil/x.cmake -S . -B build`,
		`cmake -P ../evil/x.cmake`,
	},
}

// canaryRound96Ordinary stay allowed: a compiler's programs, headers and
// runtime library directories in the project or the system's (gcc
// -Btools/ asked before: the analysis took the "/" after the option's
// letters for a path it may write).
var canaryRound96Ordinary = []string{
	`gcc -Btools/ -c x.c`, `gcc -B tools -o t x.c && ./t`, `gcc -o t y.c -L. -lq -Wl,-rpath,. && ./t`,
	`gcc -o t y.c -L. -lq -Wl,-rpath,'$ORIGIN' && ./t`, `gcc -o t x.c -Wl,-rpath,/usr/local/lib`,
	`gcc -o sub/t y.c -L. -lq -Wl,-rpath,'$ORIGIN/..' && sub/t`, `gcc -include sub/h.h -c x.c`,
	`gcc -I=/usr/include -c x.c`, `gcc -fplugin=annobin -c x.c || true`,
	// ".." from the directory cd went to is the project (these asked:
	// ".." was also taken from the project's root).
	`cd sub && gcc -I.. -c ../x.c`, `cd sub && gcc -I.. -c ../x.c -o ../x.o`, `(cd sub && gcc -iquote .. -o t ../x.c)`,
	`pushd sub && gcc -I.. -c ../x.c`, `cd sub || exit 1; gcc -I.. -o t ../x.c && ./t`,
	// cmake configuring the project (cmake -S . asked: "." was taken for
	// a tree it may write, which holds protected paths).
	`cmake -S . -B build`, `cmake -S. -Bbuild -G Ninja`, `cmake .`, `mkdir -p build && cd build && cmake ..`,
	`cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=/opt/qt`,
	`cmake -DCMAKE_TOOLCHAIN_FILE=cmake/tc.cmake -S . -B build`, `cmake -P cmake/script.cmake`,
	`cd sub && cmake -S .. -B ../build`,
}

func TestCanaryRound96(t *testing.T) {
	t.Parallel()
	tooltest.Need(t, tooltest.CanaryTools, "git", "gcc", "cmake")
	template := round96Template(t)
	checkCanaryRoundIn(t, template, canaryRound96)
	checkOrdinary(t, template, canaryRound96Ordinary, nil)
}

// round96Template is canaryTemplate with round 96's files: ../evil's
// shadowing headers, constructor library and as, the project's parent's
// stdio.h, CMake projects in and next to the project, and inc linked to
// ../evil.
func round96Template(t *testing.T) string {
	t.Helper()
	template := canaryTemplate(t)
	// The constructor removes the canary from the project, from one of
	// its directories and from ../evil, where cd inc leads.
	const ctor = "#include <unistd.h>\n__attribute__((constructor)) static void evil(void){ unlink(\"c\"); " +
		"unlink(\"../c\"); unlink(\"../work/c\"); }\n"
	shadow := "#include_next <stdio.h>\n" + ctor
	for name, content := range map[string]string{
		"work/x.c":             "#include <stdio.h>\nint main(void){puts(\"hi\");return 0;}\n",
		"work/y.c":             "int q(void);\nint main(void){return q();}\n",
		"work/q.c":             "int q(void){return 0;}\n",
		"work/sub/h.h":         "#define H 1\n",
		"work/tools/.keep":     "",
		"evil/stdio.h":         shadow,
		"evil/evil.h":          ctor,
		"evil/q.c":             "int q(void){return 0;}\n" + ctor,
		"evil/as":              "#!/bin/sh\nrm -f c\nexec as \"$@\"\n",
		"stdio.h":              shadow,
		"work/CMakeLists.txt":  "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n",
		"other/CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(o NONE)\nexecute_process(COMMAND rm -f ../c WORKING_DIRECTORY ${CMAKE_BINARY_DIR})\n",
		"evil/x.cmake":         "execute_process(COMMAND rm -f c)\n",
	} {
		p := filepath.Join(template, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for dir, src := range map[string]string{"work": "q.c", "evil": "q.c"} {
		cmd := exec.Command("gcc", "-shared", "-fPIC", "-o", "libq.so", src)
		cmd.Dir = filepath.Join(template, dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s/libq.so: %v\n%s", dir, err, out)
		}
	}
	if err := os.Symlink("../evil", filepath.Join(template, "work", "inc")); err != nil {
		t.Fatal(err)
	}
	return template
}
