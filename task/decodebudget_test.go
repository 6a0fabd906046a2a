package task

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// TestAnEncodedListDecodingFarBeyondItsSizeIsRefused plants, with a
// compressing codec (which needs no key, so a data home copied in can hold
// such a list), task records that decode to far more than they store
// (round 133: 30 zstd records of 200 MiB each in 364 KB; lite-agent tasks
// list, and a resumed session reading its list, ran out of memory past
// 6 GB). Here the budget's floor is lowered to 1 MiB and records of
// 512 KiB of one letter compress to a few hundred bytes. List and Render
// refuse the list with a *storage.Error naming a record;
// a list whose records decode to less than the budget, and an ordinary
// one, are read as before.
func TestAnEncodedListDecodingFarBeyondItsSizeIsRefused(t *testing.T) {
	enc := storage.Encoding{Codec: codec.Zstd()}
	for _, tc := range []struct {
		name    string
		big     int // records of 512 KiB of one letter
		refused bool
	}{
		{"ordinary", 0, false},
		{"under the budget", 1, false},
		{"far over what it stores", 6, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s := newFile(t, dir, "list", enc)
			mustCreate(t, s, "small")
			for range tc.big {
				if _, err := s.Create(context.Background(), CreateInput{Subject: "big", Description: strings.Repeat("A", 512<<10)}); err != nil {
					t.Fatal(err)
				}
			}
			s = newFile(t, dir, "list", enc)
			s.decodeFloor = 1 << 20
			ts, listErr := s.List(t.Context())
			_, renderErr := s.Render(t.Context(), RenderOptions{})
			if !tc.refused {
				if listErr != nil || len(ts) != tc.big+1 || renderErr != nil {
					t.Fatalf("List = %d tasks, %v; Render %v", len(ts), listErr, renderErr)
				}
				return
			}
			for name, err := range map[string]error{"List": listErr, "Render": renderErr} {
				var se *storage.Error
				if !errors.As(err, &se) || !strings.Contains(se.Message, "decodes to more than") || se.Kind != storage.KindTask || !strings.HasSuffix(se.File, ".json") {
					t.Errorf("%s = %v, want a *storage.Error naming a record of the list", name, err)
				}
			}
		})
	}
}
