package msgjson

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
)

// The fast scan (scan.go) and ScanString's first pass are checked against
// the Reader as it was: the step-by-step Skip and SkimType (skip and
// skimType, which the fast scan falls back to) and copies of ScanString
// and Number from before the fast scan. Each must leave the Reader in the
// same state: position, error, depth, Lossy, and the same value.

// oldScanString is ScanString before it looked for the end of a string
// first.
func oldScanString(r *Reader, decode bool) (val []byte, plain bool) {
	if r.Peek() != '"' {
		r.Fail(ErrSyntax)
		return nil, false
	}
	b := r.Buf
	start := r.Pos + 1
	i := start
	for {
		i = jsonstr.PlainRunBytes(b, i)
		if i >= len(b) {
			r.Fail(ErrSyntax)
			return nil, false
		}
		c := b[i]
		if c == '"' {
			r.Pos = i + 1
			return b[start:i], true
		}
		if c >= utf8.RuneSelf {
			if rn, size := utf8.DecodeRune(b[i:]); rn != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		if c < 0x20 {
			r.Fail(ErrSyntax)
			return nil, false
		}
		break // an escape or invalid UTF-8: the value differs from the input
	}
	var out []byte
	if decode {
		out = append(r.Scratch[:0], b[start:i]...)
	}
	for {
		j := jsonstr.PlainRunBytes(b, i)
		if decode {
			out = append(out, b[i:j]...)
		}
		i = j
		if i >= len(b) {
			r.Fail(ErrSyntax)
			return nil, false
		}
		switch c := b[i]; {
		case c == '"':
			r.Pos = i + 1
			if !decode {
				return b[start:i], false
			}
			r.Scratch = out
			return out, false
		case c == '\\':
			if i+1 >= len(b) {
				r.Fail(ErrSyntax)
				return nil, false
			}
			var e byte
			switch b[i+1] {
			case '"', '\\', '/':
				e = b[i+1]
			case 'b':
				e = '\b'
			case 'f':
				e = '\f'
			case 'n':
				e = '\n'
			case 'r':
				e = '\r'
			case 't':
				e = '\t'
			case 'u':
				if len(b)-i < 6 || !isHex4(b[i+2:i+6]) {
					r.Fail(ErrSyntax)
					return nil, false
				}
				rr := hex4(b[i+2 : i+6])
				i += 6
				if utf16.IsSurrogate(rr) {
					if len(b)-i >= 6 && b[i] == '\\' && b[i+1] == 'u' && isHex4(b[i+2:i+6]) {
						if dec := utf16.DecodeRune(rr, hex4(b[i+2:i+6])); dec != utf8.RuneError {
							rr = dec
							i += 6
						} else {
							rr = utf8.RuneError
						}
					} else {
						rr = utf8.RuneError
					}
					if rr == utf8.RuneError && decode {
						r.Lossy = true
					}
				}
				if decode {
					out = utf8.AppendRune(out, rr)
				}
				continue
			default:
				r.Fail(ErrSyntax)
				return nil, false
			}
			if decode {
				out = append(out, e)
			}
			i += 2
		case c < 0x20:
			r.Fail(ErrSyntax)
			return nil, false
		default: // non-ASCII
			rn, size := utf8.DecodeRune(b[i:])
			if decode {
				if rn == utf8.RuneError && size == 1 {
					out = append(out, "\ufffd"...)
				} else {
					out = append(out, b[i:i+size]...)
				}
			}
			i += size
		}
	}
}

// oldNumber is Number before it shared numberEnd with the fast scan.
func oldNumber(r *Reader) []byte {
	r.SkipSpace()
	b, start, i := r.Buf, r.Pos, r.Pos
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		r.Fail(ErrSyntax)
		return nil
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			r.Fail(ErrSyntax)
			return nil
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			r.Fail(ErrSyntax)
			return nil
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	r.Pos = i
	return b[start:i]
}

// readerState is what a read leaves in a Reader, but Scratch, which only
// the values it returns may use.
type readerState struct {
	Pos, Depth int
	Err        error
	Lossy      bool
}

func stateOf(r *Reader) readerState { return readerState{r.Pos, r.Depth, r.Err, r.Lossy} }

// sameSkip checks Skip and SkimType against skip and skimType on data,
// read from pos at nesting depth depth.
func sameSkip(t *testing.T, data []byte, pos, depth int) {
	t.Helper()
	fast, slow := Reader{Buf: data, Pos: pos, Depth: depth}, Reader{Buf: data, Pos: pos, Depth: depth}
	fast.Skip()
	slow.skip()
	if got, want := stateOf(&fast), stateOf(&slow); got != want {
		t.Fatalf("Skip(%.200q from %d at depth %d) leaves %+v, step by step %+v", data, pos, depth, got, want)
	}
	fast, slow = Reader{Buf: data, Pos: pos, Depth: depth}, Reader{Buf: data, Pos: pos, Depth: depth}
	errType := fmt.Errorf("no type")
	typ, ok := SkimType(&fast, errType)
	wantTyp, wantOK := skimType(&slow, errType)
	if got, want := stateOf(&fast), stateOf(&slow); got != want || ok != wantOK || !bytes.Equal(typ, wantTyp) {
		t.Fatalf("SkimType(%.200q from %d at depth %d) = %q, %v, leaving %+v; step by step %q, %v, leaving %+v",
			data, pos, depth, typ, ok, got, wantTyp, wantOK, want)
	}
	end, ok := SkipTyped(data, pos, depth)
	if ok && (!wantOK || end != slow.Pos || slow.Err != nil) {
		t.Fatalf("SkipTyped(%.200q, %d, %d) = %d, true; SkimType step by step: %q, %v, ending at %d (%v)", data, pos, depth, end, wantTyp, wantOK, slow.Pos, slow.Err)
	}
}

// sameString checks ScanString and Number against their old versions.
func sameString(t *testing.T, data []byte, pos int) {
	t.Helper()
	for _, decode := range []bool{false, true} {
		nr, or := Reader{Buf: data, Pos: pos}, Reader{Buf: data, Pos: pos}
		val, plain := nr.ScanString(decode)
		wantVal, wantPlain := oldScanString(&or, decode)
		if got, want := stateOf(&nr), stateOf(&or); got != want || plain != wantPlain || !bytes.Equal(val, wantVal) {
			t.Fatalf("ScanString(%.200q from %d, decode %v) = %q, %v, leaving %+v; before %q, %v, leaving %+v",
				data, pos, decode, val, plain, got, wantVal, wantPlain, want)
		}
	}
	nr, or := Reader{Buf: data, Pos: pos}, Reader{Buf: data, Pos: pos}
	if got, want := nr.Number(), oldNumber(&or); !bytes.Equal(got, want) || stateOf(&nr) != stateOf(&or) {
		t.Fatalf("Number(%.200q from %d) = %q, leaving %+v; before %q, leaving %+v", data, pos, got, stateOf(&nr), want, stateOf(&or))
	}
}

// trickyStrings are string bodies around what the word-at-a-time scans
// look for: escapes, control characters, bytes 0x7f, 0x80 and 0xff,
// UTF-8 (valid, truncated and split across words) and surrogate escapes.
var trickyStrings = []string{
	``, `a`, `\"`, `\\`, `\/`, `\b\f\n\r\t`, `\u0041`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00`,
	`\ud800\u0041`, `\ud800\ud800`, `\udc00\ud800`, `\uD83D\uDE00`, `\u12`, `\u12g4`, `\x`, `\`, `\u`,
	"\x00", "\x01", "\x1f", "\t", "\n", " ", "\x7f", "\x80", "\xff", "\xfe", "\xc3", "\xc3\xa9", "\xe2\x82\xac",
	"\xf0\x9f\x98\x80", "\xf0\x9f\x98", "\xed\xa0\x80", "\xe2\x80\xa8", "\xef\xbf\xbd", "\xc0\xaf",
	strings.Repeat("x", 7), strings.Repeat("x", 8), strings.Repeat("x", 15), strings.Repeat("x", 16), strings.Repeat("x", 17),
	strings.Repeat("word ", 80), strings.Repeat("é", 40), strings.Repeat("\xff", 24),
}

// TestFastScanAgreesWithTheStepwiseReader puts each tricky string body at
// every offset from 0 to 24 (so across the boundaries of every word and
// sixteen-byte step) of a string, as a value and as a key, in objects and
// arrays with and without white space, and compares the fast scan and
// ScanString with the Reader as it was, from every start.
func TestFastScanAgreesWithTheStepwiseReader(t *testing.T) {
	for _, body := range trickyStrings {
		for pad := 0; pad <= 24; pad++ {
			s := strings.Repeat("p", pad) + body + "q"
			u := strings.Repeat("p", pad) + body // what follows the body matters too
			for _, doc := range []string{
				`"` + s + `"`,
				`"` + s,
				`{"type":"` + s + `","x":1}`,
				`{"x":["` + s + `",2],"type":"t"}`,
				`{"` + s + `":true,"type":"t"}`,
				`{ "type" : "t" , "` + s + `" : [ null , -1.5e3 ] }`,
				`{"type":"` + s + `"` + "\n}",
				`[{"type":"t","a":{"b":"` + s + `"}}]`,
				`{"` + s + `:1,"type":"t"}`,
				`{"type":"t","a":"` + s + `}`,
				`{"` + u + `:1,"type":"t"}`,
				`{"type":"t","` + u + `:1}`,
				`{"type":"t","` + u + `":1}`,
				`["` + u + `"]`,
				`"` + u,
			} {
				data := []byte(doc)
				for pos := range data {
					sameString(t, data, pos)
					sameSkip(t, data, pos, 0)
				}
			}
		}
	}
}

// TestFastScanAgreesOnNestingAndShape checks values whose verdict depends
// on what the fast scan counts or looks at: nesting around its stack's
// width and the Reader's limit, keys that decode to "type", a "type" that
// is not a string, numbers and literals cut short, and members out of
// place.
func TestFastScanAgreesOnNestingAndShape(t *testing.T) {
	nest := func(n int, open, inner, close string) string {
		return strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	docs := []string{
		`{}`, `{"type":"t"}`, `{"type":1}`, `{"type":"t","type":2}`, `{"type":2,"type":"t"}`, `{"type":"a","type":"b"}`,
		`{"typ\u0065":"t"}`, `{"type":"t","typ\u0065":3}`, `{"\u0074ype":"t"}`, `{"types":"t"}`, `{"typ":"t"}`, `{"Type":"t"}`,
		`{"type":"t",}`, `{"type":"t" "x":1}`, `{"type":"t","x"}`, `{"type":"t","x":}`, `{,"type":"t"}`, `{"type":"t"}}`,
		`{"type":"\ud800"}`, `{"\ud800":1,"type":"t"}`, `{"type":"t","x":[1,]}`, `{"type":"t","x":[,1]}`, `{"type":"t","x":[1 2]}`,
		`{"type":"t","x":tru}`, `{"type":"t","x":nul}`, `{"type":"t","x":falsey}`, `{"type":"t","x":-}`, `{"type":"t","x":01}`,
		`{"type":"t","x":1.}`, `{"type":"t","x":1e}`, `{"type":"t","x":1e+}`, `{"type":"t","x":-0.0e-0}`, `{"type":"t","x":.5}`,
		`{"type":"t","x":[[],{},[{}],{"a":[]}]}`, `{"type":"t","x":[ ]}`, `{"type":"t","x":{ }}`, "\t{\r\"type\"\n:\"t\" }",
		`{"type":"t","x" 1,"y":2222}`, `{"type":"t","x",1,"y":[2222]}`, `{"type":"t","x"1,"y":[2222]}`, `{"type":"t","x" :1,"y":[2222]}`,
		`{"type":"t","x":{"y" 1,"z":2222}}`, `{"type":"t","x":{"y",1,"z":2222}}`, `{"type" "t","x":{"y":1,"z":2222}}`,
		`[1,2]`, `"s"`, `12`, `null`, ``, ` `, `{`, `[`, `{"type"`, `{"type":`, `{"type":"t"`, `{"type":"t",`,
	}
	for _, n := range []int{1, 2, 62, 63, 64, 65, 66, 130} {
		docs = append(docs,
			`{"type":"t","x":`+nest(n, "[", "", "]")+`}`,
			`{"type":"t","x":`+nest(n, `{"a":`, "1", "}")+`}`,
			`{"type":"t","x":`+nest(n, "[", "", "]")[1:]+`}`,
			nest(n, "[", `"x"`, "]"),
			nest(n, `{"type":"t","a":`, "0", "}"),
		)
	}
	for _, doc := range docs {
		data := []byte(doc)
		for pos := 0; pos <= len(data); pos++ {
			for _, depth := range []int{0, 1, maxDepth - 70, maxDepth - 65, maxDepth - 64, maxDepth - 63, maxDepth - 2, maxDepth - 1, maxDepth, maxDepth + 1} {
				sameSkip(t, data, pos, depth)
			}
			sameString(t, data, pos)
		}
	}
}

func FuzzFastScanAgreesWithTheStepwiseReader(f *testing.F) {
	for _, in := range jsonCorpus {
		f.Add([]byte(in), 0, 0)
	}
	f.Add([]byte(`{"type":"user","message":{"role":"user","content":"p\u00e9 \ud83d\ude00 \xff"}}`), 0, 1)
	f.Add([]byte(`{"typ\u0065":"t","x":[[[[1]]]]}`), 0, maxDepth-3)
	f.Fuzz(func(t *testing.T, data []byte, pos, depth int) {
		if pos < 0 || pos > len(data) {
			pos = 0
		}
		if depth < 0 || depth > maxDepth+1 {
			depth = 0
		}
		sameSkip(t, data, pos, depth)
		sameString(t, data, pos)
	})
}

// TestStringRunIsTheRunScanStringPasses checks jsonstr.StringRun, which
// ScanString and the fast scan stand on, against the rule ScanString
// applies byte by byte: only '"', '\\' and control characters end a run.
func TestStringRunIsTheRunScanStringPasses(t *testing.T) {
	for c := range 256 {
		b := []byte{'a', byte(c), 'b'}
		end, _ := jsonstr.StringRun(b, 0)
		if stops := c < 0x20 || c == '"' || c == '\\'; stops != (end == 1) {
			t.Errorf("StringRun stops at %#x: %v", c, end == 1)
		}
	}
}
