package shellscan

import (
	"strconv"
	"strings"
	"testing"
)

// Round 15: an option's value may hold another program's options, and
// their values name files that program writes (go build -ldflags=-o=x
// links into x). The words of a command the analysis does not model are
// now searched for such nested values, and options that name a program
// to run (cargo --config …runner, rustc -C linker=) make the line opaque.
func TestNestedOptionValuesArePathsItMayWrite(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"go test -ldflags=-o=.git/config ./...", ".git/config"},
		{"go build -gcflags=all=-cpuprofile=.git/config ./...", ".git/config"},
		{"go build '-ldflags=-s -w -o .git/hooks/pre-commit' ./...", ".git/hooks/pre-commit"},
		{"go list -export -asmflags=-o=.git/config ./...", ".git/config"},
		{"rustc -C link-arg=-o.git/config x.rs", ".git/config"},
		{"rustc -Clink-arg=-o.git/config x.rs", ".git/config"},
		{"rustc --emit=link=.git/config x.rs", ".git/config"},
		{`cargo build --target-dir=x '--message-format=json,x=".git"'`, ".git"},
		{`tool --opts '{"out": ".git/config"}'`, ".git/config"},
		{"tool -Wl,-Map,.git/config", ".git/config"},
		// The compiler's -json=0,file://DIR writes its logs under DIR.
		{"go build -o m -gcflags=-json=0,file://hooks .", "hooks"},
		{"go build -o m -gcflags=-json=0,file:///home/u/.config/gc .", "/home/u/.config/gc"},
		{"go test -gcflags=all=-json=0,FILE:///w/%2Egit/hooks .", "/w/.git/hooks"},
		{"tool --log=file:.git/x", ".git/x"},
	} {
		checkMayWrite(t, tt.line, tt.want)
	}
	for _, line := range []string{
		`cargo run --config 'target.x86_64-unknown-linux-gnu.runner=["rm","-f","c"]'`,
		`cargo --config=build.rustc-wrapper=x build`,
		"rustc -C linker=rm x.rs", "rustc -Clinker=rm x.rs", "rustc --codegen=linker=rm x.rs", "rustdoc -C linker=x x.rs",
		// rustc @path reads more arguments from path; cargo rustc and
		// cargo rustdoc pass the words after -- to rustc; the linker
		// reads a file of arguments named after '@'.
		"rustc @args.txt m.rs", "cargo rustc -- -C linker=rm", "cargo rustc --release -- -Clinker=rm",
		"cargo -v rustdoc -- -C linker=x", "cargo rustc -- @a.txt", "rustc -C link-arg=@a.txt m.rs",
		"rustc -Clink-args=-Wl,@a.txt m.rs",
	} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) == 0 {
			t.Errorf("%q is not opaque", line)
		}
	}
	for _, line := range []string{"rustc -C opt-level=3 x.rs", "cargo build --release", "cargo test -- --nocapture @x", "cargo rustc --release -- -C opt-level=3", `go build -ldflags="-s -w -X main.v=1" ./...`} {
		if a := analyzeBash(line, "/home/u", "/w"); len(a.reasons) > 0 {
			t.Errorf("%q is opaque: %q", line, a.reasons)
		}
	}
	// A value with more nested values than maxNested is not searched
	// through: the line is opaque.
	var vals []string
	for i := range maxNested + 1 {
		vals = append(vals, "v"+strconv.Itoa(i))
	}
	many := "tool --x=" + strings.Join(vals, ",")
	if a := analyzeBash(many, "/home/u", "/w"); len(a.reasons) == 0 {
		t.Errorf("a value with %d nested values is not opaque", maxNested+1)
	}
}
