package shellscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Round 96: the options that name where a compiler driver takes code
// from (-B, -include, -imacros, --sysroot, -isysroot, -specs=, -fplugin=,
// the linker's -rpath, -R, --dynamic-linker) ask when they name a path
// outside the project and the system's own directories, by that rule
// rather than as paths the compiler might write; in the project they are
// reads (gcc -Btools/ asked: "/" was taken for a path it writes). A ".."
// after a link of the project steps back from where the link led.
func TestCompilerCodePathsOutsideTheProject(t *testing.T) {
	root := t.TempDir()
	wd := filepath.Join(root, "w")
	for _, d := range []string{filepath.Join(root, "evil"), filepath.Join(wd, "tools"), filepath.Join(wd, "build")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../evil", filepath.Join(wd, "inc")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	for _, line := range []string{
		"gcc -B../tools -c x.c", "gcc -B ../tools -o t x.c", "gcc -B/tmp/x x.c", "gcc -Binc/ -c x.c",
		"gcc -include ../e.h x.c", "gcc -include../e.h x.c", "gcc -imacros ../e.h x.c",
		"gcc --sysroot=../sr x.c", "gcc --sysroot ../sr x.c", "clang -isysroot ../sr x.c",
		"gcc -specs=../x.specs x.c", "gcc --specs=/tmp/x.specs x.c", "gcc -fplugin=../p.so x.c",
		"gcc -iplugindir=../p x.c", "gcc -Iinc/.. x.c", "gcc -isystem inc/.. x.c", "gcc -Linc/.. x.c",
		"cc -Iinc/../evil x.c", "gcc --sysroot=sr -I=../../evil x.c", "gcc -B \"$X\" x.c",
		"gcc -Wl,-rpath,/tmp/lib x.c", "gcc -Wl,-rpath=../lib x.c", "gcc -Wl,-rpath,inc x.c",
		"gcc -Wl,-rpath,inc/.. x.c", "gcc -o t x.c -Wl,-rpath,'$ORIGIN/..'", "gcc -Wl,-rpath,'$LIB/x' x.c",
		"gcc -Wl,-rpath,build:/tmp/x x.c", "gcc -Xlinker -rpath -Xlinker /tmp/x x.c", "gcc -Wl,-rpath -Wl,/tmp/x x.c",
		"gcc -Wl,-R,/tmp/x x.c", "gcc -Wl,-R/tmp/x x.c", "gcc -Wl,--dynamic-linker=/tmp/ld.so x.c",
		"gcc -Wl,-dynamic-linker,../ld.so x.c", "gcc -Wl,-L,../lib x.c",
	} {
		a := analyzeBash(line, home, wd)
		if !strings.Contains(strings.Join(a.reasons, "; "), "outside the project") &&
			!strings.Contains(strings.Join(a.reasons, "; "), "only known when") &&
			!strings.Contains(strings.Join(a.reasons, "; "), "loader expands") {
			t.Errorf("%q: reasons %q; want the path outside the project named", line, a.reasons)
		}
	}
	for _, line := range []string{
		"gcc -Btools/ -c x.c", "gcc -B tools -o t x.c", "gcc -Bbuild/ x.c", "gcc -include build/config.h -c x.c",
		"gcc -imacros tools/m.h x.c", "gcc --sysroot=/opt/sr x.c", "gcc -fplugin=annobin x.c",
		"gcc -specs=build/x.specs x.c", "gcc -Wl,-rpath,build x.c", "gcc -Wl,-rpath,/usr/local/lib x.c",
		"gcc -o build/bin/t x.c -Wl,-rpath,'$ORIGIN/../lib'", "gcc -Wl,-rpath,'$ORIGIN' x.c",
		"gcc -I=/usr/include x.c",
	} {
		a := analyzeBash(line, home, wd)
		var writes []string
		for _, x := range a.accesses {
			if x.unknown && (x.path == "/" || strings.HasPrefix(x.path, "/usr") || x.path == "build") {
				writes = append(writes, x.path)
			}
		}
		if len(a.reasons) > 0 || len(writes) > 0 {
			t.Errorf("%q: reasons %q, paths it may write %q; want none", line, a.reasons, writes)
		}
	}
	// A -Wl, word with a part that is no such option stays among the
	// paths the compiler may write.
	for _, line := range []string{"gcc -Wl,-rpath,build,-o,.git/hooks/pre-commit x.c", "gcc -Wl,-o,.git/hooks/x x.c"} {
		a := analyzeBash(line, home, wd)
		found := false
		for _, x := range a.accesses {
			found = found || x.unknown && strings.Contains(x.path, ".git/hooks")
		}
		if !found {
			t.Errorf("%q: %v; want .git/hooks among the paths it may write", line, a.accesses)
		}
	}
}

// A compiler's relative paths are taken from the directories the line's
// cd commands lead it to (see cwdFlow): cd sub && gcc -I.. -c ../x.c
// asked, ".." taken from the project's root too. Where the flow cannot
// tell (a cd that may fail before ';', a cd in a subshell, a group, if),
// every directory of the line counts, as before.
func TestCompilerPathsFromTheCommandsDirectory(t *testing.T) {
	root := t.TempDir()
	wd := filepath.Join(root, "w")
	if err := os.MkdirAll(filepath.Join(wd, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "evil"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../evil", filepath.Join(wd, "inc")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	for _, line := range []string{
		"cd sub && gcc -I.. -c ../x.c", "pushd sub && gcc -iquote .. -c ../x.c", "(cd sub && gcc -I.. -c ../x.c)",
		"cd sub || exit 1; gcc -I.. -c ../x.c", "cd sub/deeper && gcc -I../.. -L.. -c ../../x.c",
		"cd sub && timeout 5 gcc -I.. -c ../x.c", "cd sub && gcc -I.. -c ../x.c -o ../x.o",
		"true && cd sub && gcc -I.. -c ../x.c", "{ cd sub && gcc -I.. -c ../x.c; }",
	} {
		a := analyzeBash(line, home, wd)
		if len(a.reasons) > 0 {
			t.Errorf("%q: reasons %q; want none", line, a.reasons)
		}
		for _, x := range a.accesses {
			if x.unknown && strings.HasPrefix(x.path, "..") {
				t.Errorf("%q: %q is among the paths it may write, taken from the project's root", line, x.path)
			}
		}
	}
	for _, line := range []string{
		"cd sub; gcc -I.. -c x.c", "(cd sub) && gcc -I.. -c x.c", "cd sub && cd .. && gcc -I.. -c x.c",
		"cd sub & gcc -I.. -c x.c", "if true; then cd sub; fi; gcc -I.. -c x.c", "cd sub | gcc -I.. -c x.c",
		"cd sub && gcc -I../.. -c ../x.c", "cd inc && gcc -I.. -c x.c", "cd inc && gcc -I. -c x.c",
		"cd sub && popd && gcc -I.. -c x.c", "cd sub && source x.sh && gcc -I.. -c x.c",
		"cd sub || true; gcc -I.. -c x.c", "! cd sub && gcc -I.. -c x.c", "cd sub && bash -c 'gcc -I.. -c x.c'",
		"cd \"$D\" && gcc -I.. -c x.c", "cd sub && eval cd .. && gcc -I.. -c x.c",
		// bash's cd reads inc/../evil through the link when the
		// project holds no evil (review69c).
		"cd inc/../evil && gcc -I. -c ../work/x.c", "cd inc/../evil && gcc -include evil.h -c x.c",
		"cd inc/../evil && gcc -I.. -c x.c", "cd inc && cd ../evil && gcc -I. -c x.c",
	} {
		if a := analyzeBash(line, home, wd); len(a.reasons) == 0 {
			t.Errorf("%q: no reason; want the directory outside the project named", line)
		}
	}
}

// TestCdStepBackAfterRemoval checks that cd inc/../evil, where the
// project holds an evil of its own, counts the kernel's reading (the
// project's sibling evil, where inc leads) once the line may have
// removed the project's: bash takes the text's reading only while it is a
// directory (review69c: rm -rf evil && cd inc/../evil && gcc -I. ran
// ../evil's headers in bash).
func TestCdStepBackAfterRemoval(t *testing.T) {
	root := t.TempDir()
	wd := filepath.Join(root, "w")
	for _, d := range []string{filepath.Join(wd, "evil"), filepath.Join(root, "evil")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../evil", filepath.Join(wd, "inc")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	if a := analyzeBash("rm -rf evil && cd inc/../evil && gcc -I. -c ../w/x.c", home, wd); len(a.reasons) == 0 {
		t.Errorf("removal then cd inc/../evil: no reason; want ../evil named")
	}
	if a := analyzeBash("cd inc/../evil && gcc -I. -c x.c", home, wd); len(a.reasons) > 0 {
		t.Errorf("cd inc/../evil into the project's evil: reasons %q; want none", a.reasons)
	}
}
