package migrate_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// problemList returns the problems of rep as "file#record: message" lines,
// with files relative to the destination root, sorted.
func problemList(t *testing.T, rep migrate.Report) []string {
	t.Helper()
	var got []string
	for _, p := range rep.Problems {
		rel, err := filepath.Rel(rep.Destination.Root, p.File)
		if err != nil {
			rel = p.File
		}
		got = append(got, rel+"#"+p.Record+": "+p.Message)
	}
	slices.Sort(got)
	return got
}

// TestFailedVerificationProblems pins what a migration reports for each
// kind of record when the destination codec decodes every record to
// something else than it encoded: one problem per record, naming it, with
// the text of the check that caught it.
func TestFailedVerificationProblems(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: lyingCodec{}}},
	})
	if !errors.Is(err, migrate.ErrVerification) {
		t.Fatalf("err = %v, want ErrVerification", err)
	}
	var want []string
	want = append(want, sessionProblems(src, "the record differs from the source")...)
	for i := range 3 {
		want = append(want, "sessions/s1.context/index.jsonl#"+strconv.Itoa(i)+": the index line differs from the source")
	}
	want = append(want, otherProblems(src)...)
	slices.Sort(want)
	if got := problemList(t, rep); !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// sessionProblems returns the problem of every session record of src with
// message msg.
func sessionProblems(src fixture, msg string) []string {
	var want []string
	for _, sid := range []string{"s1", "agent-general-0badc0de"} {
		for rec := 1; rec <= 5; rec++ {
			want = append(want, "sessions/"+sid+".jsonl#"+strconv.Itoa(rec)+": "+msg)
		}
	}
	return want
}

// otherProblems returns the problem of every archive note, spill file and
// task record of src when each decodes to something else.
func otherProblems(src fixture) []string {
	var want []string
	for _, ref := range src.refs["s1"] {
		want = append(want, "sessions/s1.context/notes/"+ref+".md#"+ref+": the archive record differs from the source")
	}
	for _, ref := range src.spillRefs {
		want = append(want, "spill/"+ref+".txt#"+ref+": the spill record differs from the source")
	}
	for _, list := range []string{"s1", "shared"} {
		for id := 1; id <= 3; id++ {
			want = append(want, "tasks/"+list+"/"+strconv.Itoa(id)+".json#"+strconv.Itoa(id)+": the task record differs from the source")
		}
	}
	return want
}

// TestVerificationDecodesThroughTheCodecsCheck runs migrations to a codec
// that is a storage.Checker whose Check alone decodes wrongly: the codec's
// own Decode and AppendDecode are right, so only the decoding that verifies
// each record just written (a session record, a note, a task, a spill
// file) can catch it, and must, with the texts any failing decode gets.
// The archive index is verified as a whole after it is written, through
// the codec's Decode.
func TestVerificationDecodesThroughTheCodecsCheck(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	for _, tc := range []struct {
		name   string
		decode func(p []byte) ([]byte, error)
		want   []string
	}{
		{
			name:   "different bytes",
			decode: func(p []byte) ([]byte, error) { return append(p, ' '), nil },
			want:   append(sessionProblems(src, "the record differs from the source"), otherProblems(src)...),
		},
		{
			name:   "a failure",
			decode: func(p []byte) ([]byte, error) { return nil, errors.New("no") },
			want: func() []string {
				// A storage.Error's text names the record.
				var want []string
				for _, p := range append(sessionProblems(src, ""), otherProblems(src)...) {
					at, _, _ := strings.Cut(p, ": ")
					_, rec, _ := strings.Cut(at, "#")
					kind := map[string]string{"sessions": "archive", "spill": "spill", "tasks": "task"}[strings.Split(at, "/")[0]]
					if strings.HasSuffix(strings.Split(at, "#")[0], ".jsonl") {
						kind = "checkpoint"
					}
					want = append(want, at+": Storage decode failed ("+kind+") record "+rec)
				}
				return want
			}(),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := migrate.Run(t.Context(), migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: &checkingCodec{checkDecode: tc.decode}}},
			})
			if !errors.Is(err, migrate.ErrVerification) {
				t.Fatalf("err = %v, want ErrVerification", err)
			}
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if got := problemList(t, rep); !slices.Equal(got, want) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// checkingCodec stores each record as it is. It is a storage.Checker whose
// Check encodes as the codec does but decodes with checkDecode.
type checkingCodec struct {
	checkDecode func(p []byte) ([]byte, error)
}

var _ storage.Checker = (*checkingCodec)(nil)

func (*checkingCodec) ID() string { return "checking-v1" }
func (c *checkingCodec) Encode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.AppendEncode(ctx, nil, p, sc)
}
func (c *checkingCodec) Decode(ctx context.Context, p []byte, sc storage.Context) ([]byte, error) {
	return c.AppendDecode(ctx, nil, p, sc)
}
func (*checkingCodec) AppendEncode(_ context.Context, dst, p []byte, _ storage.Context) ([]byte, error) {
	return append(slices.Clip(dst), p...), nil
}
func (*checkingCodec) AppendDecode(_ context.Context, dst, p []byte, _ storage.Context) ([]byte, error) {
	return append(slices.Clip(dst), p...), nil
}
func (c *checkingCodec) NewCheck() storage.Check { return lyingCheck{c} }

// lyingCheck is the Check of a checkingCodec.
type lyingCheck struct{ c *checkingCodec }

func (k lyingCheck) AppendEncode(ctx context.Context, dst, p []byte, sc storage.Context) ([]byte, error) {
	return k.c.AppendEncode(ctx, dst, p, sc)
}
func (k lyingCheck) AppendDecode(_ context.Context, dst, p []byte, _ storage.Context) ([]byte, error) {
	out, err := k.c.checkDecode(slices.Clone(p))
	if err != nil {
		return nil, err
	}
	return append(dst, out...), nil
}
