package shellscan

import (
	"strings"
	"testing"
)

// Round 96: cmake configuring the project reads its source directory
// (cmake -S . -B build asked: "." was taken for a tree it may write), and
// asks when the CMake code it runs comes from outside the project: a
// source directory, -C and -P scripts, a toolchain file, an included
// file, a compiler or flags naming such paths.
func TestCmakePaths(t *testing.T) {
	for _, line := range []string{
		"cmake -S . -B build", "cmake -S. -Bbuild", "cmake .", "cd build && cmake ..", "cmake -B build -G Ninja",
		"cmake -S . -B build -DCMAKE_PREFIX_PATH=/opt/qt", "cmake -DCMAKE_TOOLCHAIN_FILE=cmake/tc.cmake -B build",
		"cmake -P cmake/x.cmake", "cmake -C cache.cmake -B build", "cmake \"-DCMAKE_C_FLAGS=-O2 -Wall\" -B build",
		"cd sub && cmake -S .. -B ../build", "cmake -DCMAKE_C_COMPILER=clang -DCMAKE_C_COMPILER_LAUNCHER=ccache -B build",
	} {
		a := analyzeBash(line, "/home/u", "/w")
		var writes []string
		for _, x := range a.accesses {
			if x.unknown && (x.path == "." || x.path == ".." || strings.HasPrefix(x.path, "/opt") || strings.HasPrefix(x.path, "../")) {
				writes = append(writes, x.path)
			}
		}
		if len(a.reasons) > 0 || len(writes) > 0 {
			t.Errorf("%q: reasons %q, paths it may write %q; want none", line, a.reasons, writes)
		}
	}
	for _, line := range []string{
		"cmake ..", "cmake -S ../other -B build", "cmake -S../other", "cmake -C ../c.cmake -B build",
		"cmake -DCMAKE_TOOLCHAIN_FILE=../x.cmake -B build", "cmake -D CMAKE_TOOLCHAIN_FILE:FILEPATH=/tmp/x -B build",
		"cmake -DCMAKE_PROJECT_INCLUDE=../x.cmake -B build", "cmake -DCMAKE_C_COMPILER=../cc -B build",
		"cmake -DCMAKE_C_FLAGS=-I../evil -B build", "cmake -DCMAKE_MODULE_PATH=/tmp/m -B build",
		"cmake -DFoo_DIR=../foo -B build", "cmake -P ../x.cmake", "mkdir b && cd b && cmake ../../other",
		"cmake -DCMAKE_C_COMPILER_LAUNCHER=/tmp/l -B build",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q: no reason; want the path outside the project named", line)
		}
	}
}
