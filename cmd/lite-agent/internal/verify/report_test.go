package verify

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

func TestMismatchHint(t *testing.T) {
	tests := []struct {
		found          string
		records, files int
		want           string
	}{
		{"gzip-v1", 0, 0, "records are encoded with gzip-v1; pass --codec gzip"},
		{"zstd-v1", 0, 0, "records are encoded with zstd-v1; pass --codec zstd"},
		{"xchacha20poly1305.v1.k1", 12, 3, "12 records in 3 files are encoded with xchacha20poly1305.v1.k1; pass --codec xchacha20poly1305 and its key (--key-env or --key-file)"},
		{"aes256gcm.v1.2026-q3", 0, 0, "records are encoded with aes256gcm.v1.2026-q3; pass --codec aes256gcm --key-id 2026-q3 and its key (--key-env or --key-file)"},
		{"rot13.v1.k1", 0, 0, "records are encoded with rot13.v1.k1; pass --codec and the key (--key-env or --key-file)"},
		{"plaintext", 0, 0, "records are plaintext; run without --codec, or migrate them (lite-agent migrate)"},
		{"gzip-v1", 1, 1, "1 record in 1 file is encoded with gzip-v1; pass --codec gzip"},
		{"plaintext", 3, 1, "3 records in 1 file are plaintext; run without --codec, or migrate them (lite-agent migrate)"},
	}
	for _, tt := range tests {
		if got := MismatchHint(tt.found, tt.records, tt.files); got != tt.want {
			t.Errorf("MismatchHint(%q, %d, %d) = %q, want %q", tt.found, tt.records, tt.files, got, tt.want)
		}
	}
}

// TestVerifyTextCountsOnlyUnlistedOtherProblems: records under another codec
// are summed up in one line each, so the text report's "more problems not
// listed" counts only the other problems past the cap.
func TestVerifyTextCountsOnlyUnlistedOtherProblems(t *testing.T) {
	for _, tt := range []struct {
		name            string
		mismatch, other int
		want            string // the "more" line, "" for none
	}{
		{"only mismatches past the cap", MaxListed + 500, 0, ""},
		{"others past the cap", MaxListed - 2, 5, "… 3 more problems not listed"},
		{"both past the cap", MaxListed + 10, 4, "… 4 more problems not listed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var r Report
			for i := range tt.mismatch {
				r.Add("/h/s.jsonl", strconv.Itoa(i+1), "decode", &storage.Error{Kind: storage.KindCheckpoint, Message: "Encoded storage requires its configured codec", Found: "gzip-v1"})
			}
			for i := range tt.other {
				r.Add("/h/t.jsonl", strconv.Itoa(i+1), "syntax", errors.New("Corrupt checkpoint record"))
			}
			var b strings.Builder
			r.WriteText(&b)
			got := ""
			for _, l := range strings.Split(b.String(), "\n") {
				if strings.HasPrefix(l, "… ") {
					got = l
				}
			}
			if !strings.HasPrefix(got, tt.want) || (tt.want == "") != (got == "") {
				t.Errorf("more line %q, want %q\n%s", got, tt.want, b.String())
			}
		})
	}
}
