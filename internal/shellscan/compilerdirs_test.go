package shellscan

import (
	"slices"
	"testing"
)

// Round 13 checks the value a cluster of one-letter options carries
// attached as a path an unmodeled command may write (ssh-keygen
// -fpre-commit). A compiler driver's search directories (-I. -L.. -iquote.
// -isystem inc) are only read, yet "." and ".." then counted as trees it
// may write, and "allow bash" asked for everyday lines such as
// gcc -I. -c x.c. They are reads; the compiler's other words are still
// checked as before (-o.git/hooks/x, -fpre-commit).
func TestCompilerSearchDirectoriesAreRead(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"gcc -I. -c x.c", []string{"reads .", "reads x.c +unknown"}},
		{"cc -Isrc/.. -L. -lm -o app x.c", []string{"reads src/..", "reads .", "reads m +unknown", "reads app +unknown", "reads x.c +unknown"}},
		{"g++ -I src/../include -isystem . -iquote src/.. -idirafter d x.cpp", []string{"reads src/../include", "reads .", "reads src/..", "reads d", "reads x.cpp +unknown"}},
		{"gcc -I/usr/include/python3.11 -I=/usr/include/x -isystem /opt/x/include -c x.c", []string{"reads /usr/include/python3.11", "reads =/usr/include/x", "reads /opt/x/include", "reads x.c +unknown"}},
		{"clang-16 -Isrc/include -c x.c", []string{"reads src/include", "reads x.c +unknown"}},
	}
	for _, tt := range tests {
		a := analyzeBash(tt.line, "/home/u", "/w")
		var got []string
		for _, x := range a.accesses {
			got = append(got, acc(x))
		}
		if len(a.reasons) > 0 || !slices.Equal(got, tt.want) {
			t.Errorf("%q: reasons %q, accesses %q; want none and %q", tt.line, a.reasons, got, tt.want)
		}
	}
	// A library directory outside the project and the system's own adds
	// code no check saw to what the compiler links (stop 51: gcc -o t
	// x.c -L../lib -levil && ./t ran a main of libevil.a's), and so does a
	// header directory (round 89: gcc -I../evil -o t x.c && ./t ran the
	// constructor of a stdio.h there), ".." from the project's root too.
	for _, line := range []string{"cc -L.. -o t x.c", "gcc -L ../x/lib -o t x.c", "g++ -L/tmp x.cpp", "cc -L /home/u/lib x.c",
		"cc -I.. -o t x.c", "g++ -I ../include x.cpp", "gcc -iquote.. x.c", "gcc -idirafter /tmp/x x.c", "gcc -isystem/home/u/inc x.c",
		"gcc -I=../x x.c", "gcc -I \"$X\" x.c", "gcc -Xpreprocessor -I/tmp/x x.c", "gcc -I/proc/self/cwd/../x x.c"} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q: no reason; want the search directory outside the project named", line)
		}
	}
	// Still opaque: a protected path or the home directory among the
	// compiler's other words.
	for _, line := range []string{"gcc -o.git/hooks/pre-commit x.c", "gcc -I. -o ~/.bashrc x.c"} {
		a := analyzeBash(line, "/home/u", "/w")
		var unknown bool
		for _, x := range a.accesses {
			unknown = unknown || x.unknown
		}
		if !unknown {
			t.Errorf("%q: no path it may write: %v", line, a.accesses)
		}
	}
}
