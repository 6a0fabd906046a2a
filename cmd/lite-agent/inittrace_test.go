//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
)

// maxInitBytes bounds what the package initialisation of one package of
// this module may allocate. Every lite-agent command pays for it before it
// does anything, so tables, compiled patterns and the like are built on
// first use (sync.OnceValue) by the code that reads them. The largest
// today is internal/shellscan's, about 4 KiB (its sync.OnceValue tables);
// it was 33 KiB when its rule tables were package-level maps.
const maxInitBytes = 8 << 10

// TestPackageInitsAllocateLittle runs this test binary again, which links
// every package lite-agent links, with GODEBUG=inittrace=1 and checks the
// bytes each package of this module allocates at initialisation.
func TestPackageInitsAllocateLittle(t *testing.T) {
	godebug := "inittrace=1"
	if v := os.Getenv("GODEBUG"); v != "" {
		godebug = v + "," + godebug
	}
	cmd := childtest.Command(t.Context(), "GODEBUG="+godebug)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	const module = "github.com/lite-agent/lite-agent-go"
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(stderr.Bytes()))
	for sc.Scan() {
		// init PKG @0.5 ms, 0.01 ms clock, 384 bytes, 4 allocs
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		pkg := f[1]
		if pkg != module && !strings.HasPrefix(pkg, module+"/") {
			continue
		}
		seen++
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if n > maxInitBytes {
			t.Errorf("package %s allocates %d bytes at initialisation (%s allocs), more than %d: build its tables on first use",
				pkg, n, f[9], maxInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace line of a package of %s:\n%s", module, stderr.String())
	}
}
