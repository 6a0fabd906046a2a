package rewind

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
)

// listOracle is List as it was before the single backward pass: for every
// prompt it scans every later record. It is kept as the reference the
// fast List is checked against.
func listOracle(events []session.StoredEvent) []Checkpoint {
	var out []Checkpoint
	for i, se := range events {
		ev, ok := se.Event.(session.UserEvent)
		if !ok || ev.Message.Role != model.RoleUser {
			continue
		}
		text := promptText(ev.Message)
		if strings.TrimSpace(text) == "" || !isPrompt(ev, text) {
			continue
		}
		cp := Checkpoint{Seq: se.Seq - 1, Prompt: text, Time: se.Time, Files: []string{}, UnavailableFiles: []string{}}
		type file struct{ truncated, bad, unverifiable bool }
		seen := map[string]*file{}
		for _, later := range events[i+1:] {
			snap, ok := later.Event.(session.FileSnapshotEvent)
			if !ok {
				continue
			}
			f := seen[snap.Path]
			if f == nil {
				f = &file{truncated: snap.Truncated}
				seen[snap.Path] = f
				cp.Files = append(cp.Files, snap.Path)
			}
			_, berr := decodeBefore(snap)
			f.bad = f.bad || later.Raw != nil || berr != nil || !snap.Deleted && snap.After != "" && !isSHA256Hex(snap.After)
			f.unverifiable = !snap.Deleted && snap.After == "" // of the last snapshot
		}
		for path, f := range seen {
			if f.truncated || f.bad || f.unverifiable {
				cp.UnavailableFiles = append(cp.UnavailableFiles, path)
			}
		}
		sort.Strings(cp.Files)
		sort.Strings(cp.UnavailableFiles)
		out = append(out, cp)
	}
	return out
}

// listPaths are the paths generated logs name: four files as the file
// tools record them, then other spellings of them.
var listPaths = []string{"a.txt", "b.txt", "d/c.txt", "d/e/f.txt", "./a.txt", "d/../a.txt", "d//c.txt", "d/e/./f.txt", "b.txt/"}

// genEvents turns fuzz input into a log: prompts of every kind (real,
// legacy, background, internal, blank, in blocks, of another role),
// replies, tool results and snapshots of every shape.
func genEvents(data []byte) []session.StoredEvent {
	yes, no := true, false
	texts := []string{"do it", "   ", "<system-reminder>x", " \n<background-task-completed>y", "again"}
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	sum := sha256.Sum256([]byte("x"))
	goodAfter := hex.EncodeToString(sum[:])
	base := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	var events []session.StoredEvent
	for len(data) > 0 {
		op, arg := next(), next()
		text := texts[int(arg)%len(texts)]
		var ev session.Event
		var raw []byte
		switch op % 10 {
		case 0:
			ev = session.UserEvent{Message: model.UserText(text), Origin: session.OriginUser, Checkpoint: &yes}
		case 1:
			ev = session.UserEvent{Message: model.UserText(text)}
		case 2:
			ev = session.UserEvent{Message: model.UserText(text), Origin: session.OriginBackground, Checkpoint: &no}
		case 3:
			ev = session.UserEvent{Message: model.UserText(text), Origin: session.OriginInternal}
		case 4:
			ev = session.UserEvent{Message: model.Message{Role: model.RoleUser, Blocks: []model.Block{model.TextBlock(text), model.TextBlock("more")}}, Checkpoint: &yes}
		case 5:
			ev = session.UserEvent{Message: model.Message{Role: model.RoleAssistant, Text: text}, Checkpoint: &yes}
		case 6:
			ev = session.AssistantEvent{Message: model.AssistantText(text)}
		default:
			flags := next()
			snap := session.FileSnapshotEvent{Path: listPaths[int(arg)%len(listPaths)], Truncated: flags&1 != 0, Deleted: flags&2 != 0}
			switch (flags >> 2) % 4 {
			case 1:
				snap.After = goodAfter
			case 2:
				snap.After = "not a digest"
			}
			switch (flags >> 4) % 6 {
			case 1:
				snap.Before, snap.Encoding = ptr("old"), "utf8"
			case 2:
				snap.Before, snap.Encoding = ptr("b2xk"), "base64"
			case 3:
				snap.Before, snap.Encoding = ptr("!!not base64"), "base64"
			case 4:
				snap.Before, snap.Encoding = ptr("old"), "rot13"
			case 5:
				snap.Before = ptr("") // no encoding recorded: utf8
			}
			if flags&0x80 != 0 {
				raw = []byte(`{"type":"file_snapshot","unknown":1}`)
			}
			ev = snap
		}
		n := int64(len(events)) + 1
		events = append(events, session.StoredEvent{Seq: n, ParentSeq: n - 1, Time: base.Add(time.Duration(n) * time.Millisecond), Event: ev, Raw: raw})
	}
	return events
}

func ptr(s string) *string { return &s }

// listSeeds are fuzz inputs: real prompts around snapshots of every kind.
var listSeeds = [][]byte{
	{},
	{0, 0},
	{0, 0, 7, 0, 0x04},
	{0, 0, 7, 0, 0x15, 0, 4, 7, 0, 0x01, 7, 1, 0x24},
	{0, 0, 7, 0, 0x14, 0, 4, 7, 0, 0x15},                                     // the first snapshot decides truncated
	{0, 0, 7, 4, 0x15, 7, 0, 0x14, 0, 4, 7, 5, 0x10, 7, 1, 0x14, 7, 8, 0x24}, // spellings
	{1, 0, 7, 1, 0x00, 1, 2, 7, 1, 0x04, 2, 0, 3, 0, 7, 2, 0x38},
	{0, 0, 7, 0, 0x05, 0, 4, 7, 0, 0x14, 5, 0, 7, 3, 0x84, 0, 1, 7, 3, 0x44, 4, 0, 7, 2, 0x0a},
	{4, 0, 7, 0, 0x14, 7, 1, 0x34, 1, 3, 7, 2, 0x06, 0, 0, 7, 0, 0x08, 7, 0, 0x24, 6, 0, 0, 4},
}

func TestListMatchesOracle(t *testing.T) {
	for i, seed := range listSeeds {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkListMatchesOracle(t, seed) })
	}
}

func FuzzListMatchesOracle(f *testing.F) {
	for _, seed := range listSeeds {
		f.Add(seed)
	}
	f.Fuzz(checkListMatchesOracle)
}

// checkListMatchesOracle checks List against the oracle given the same
// log with every snapshot's path in the form the file tools record: the
// same log, when its paths already are in that form.
func checkListMatchesOracle(t *testing.T, data []byte) {
	events := genEvents(data)
	canonical := slices.Clone(events)
	for i, se := range canonical {
		if snap, ok := se.Event.(session.FileSnapshotEvent); ok {
			snap.Path = path.Clean(snap.Path)
			canonical[i].Event = snap
		}
	}
	got, want := List(events), listOracle(canonical)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("List differs from the oracle\n got %+v\nwant %+v", got, want)
	}
}

// benchLog is a long autonomous session: 2,000 prompts, 100,000 records,
// 20,000 snapshots over 200 files (some truncated, some in base64, a few
// without an after hash).
func benchLog() []session.StoredEvent {
	yes := true
	sum := sha256.Sum256([]byte("after"))
	after := hex.EncodeToString(sum[:])
	content := strings.Repeat("line of text\n", 16)
	b64 := "AAECAwQFBgcICQ=="
	base := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	events := make([]session.StoredEvent, 0, 100_000)
	add := func(ev session.Event) {
		n := int64(len(events)) + 1
		events = append(events, session.StoredEvent{Seq: n, ParentSeq: n - 1, Time: base.Add(time.Duration(n) * time.Millisecond), Event: ev})
	}
	snaps := 0
	for p := range 2000 {
		add(session.UserEvent{Message: model.UserText(fmt.Sprintf("prompt %d", p)), Origin: session.OriginUser, Checkpoint: &yes})
		for range 10 {
			snap := session.FileSnapshotEvent{Path: fmt.Sprintf("dir%d/file%d.go", snaps%200%7, (snaps*37)%200), After: after}
			switch {
			case snaps%101 == 0:
				snap.Truncated = true
			case snaps%3 == 0:
				snap.Before, snap.Encoding = &b64, "base64"
			case snaps%997 == 0:
				snap.After = ""
			default:
				snap.Before, snap.Encoding = &content, "utf8"
			}
			snaps++
			add(session.AssistantEvent{Message: model.AssistantText("calling")})
			add(snap)
			add(session.AssistantEvent{Message: model.AssistantText("done")})
		}
		for len(events) < (p+1)*50 {
			add(session.AssistantEvent{Message: model.AssistantText("thinking")})
		}
	}
	return events
}

func BenchmarkList(b *testing.B) {
	events := benchLog()
	for b.Loop() {
		if cps := List(events); len(cps) != 2000 {
			b.Fatal(len(cps))
		}
	}
}
