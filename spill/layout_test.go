package spill_test

import (
	"testing"

	"github.com/lite-agent/lite-agent-go/spill"
)

func TestFileRef(t *testing.T) {
	ref := spill.Ref("some output")
	for _, tt := range []struct {
		name, ref string
		ok        bool
	}{
		{ref + spill.FileSuffix, ref, true},
		{ref + ".txt", ref, true},
		{ref, "", false},
		{"zz" + ref[2:] + ".txt", "", false},
		{"." + ref + ".txt.0123456789ab.tmp", "", false},
	} {
		if got, ok := spill.FileRef(tt.name); got != tt.ref || ok != tt.ok {
			t.Errorf("FileRef(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.ref, tt.ok)
		}
	}
}
