package msgjson

import (
	"encoding/json"
	"errors"
)

// BlockFields is the struct underlying model.Block, with T its BlockType.
// [ReadBlock] fills one and converts it to the caller's type, so that the
// model package can keep its own documented type while its rules live
// here; a field added to model.Block must be added here too, or the
// conversion does not compile.
type BlockFields[T ~string] = struct {
	Type        T
	Text        string
	ID          string
	Name        string
	Input       json.RawMessage
	Content     string
	IsError     bool
	Provider    string
	Data        json.RawMessage
	NullContent bool
	Raw         json.RawMessage
}

// MessageFields is the struct underlying model.Message, with R its Role
// and B its Block.
type MessageFields[R ~string, B any] = struct {
	Role   R
	Text   string
	Blocks []B
}

// The block types with members of their own; a block of another type is
// kept whole in Raw.
const (
	blockText       = "text"
	blockToolCall   = "tool_call"
	blockToolResult = "tool_result"
	blockNative     = "native"
	blockCompaction = "compaction"
)

// The shape errors of messages and blocks.
var (
	ErrMessage     = errors.New("message must be a JSON object")
	ErrRole        = errors.New("message role must be a string")
	ErrContent     = errors.New("message content must be a string or an array")
	ErrBlockType   = errors.New("block type must be a string")
	ErrBlockObject = errors.New("block must be a JSON object")
)

// ReadMessage reads a message: an object whose "role" is a string and
// whose "content" is a string (Text) or an array of blocks (Blocks, not
// nil even when empty). Other members are skipped, noting r.Lossy; of
// duplicate members the last wins, but each must be valid. A problem is
// recorded in r.Err as ErrSyntax, one of the Err* shape errors or a
// [FieldError].
func ReadMessage[R ~string, T ~string, B ~BlockFields[T], M ~MessageFields[R, B]](r *Reader) M {
	var m MessageFields[R, B]
	if r.Peek() != '{' {
		r.FailShape(ErrMessage)
		return M(m)
	}
	r.BeginObject()
	hasRole, hasContent := false, false
	for first := true; ; first = false {
		key, ok := r.NextKey(first)
		if !ok {
			break
		}
		switch string(key) {
		case "role":
			if r.Peek() != '"' {
				r.FailShape(ErrRole)
				return M(m)
			}
			m.Role, hasRole = knownRole[R](r.StrBytes()), true
		case "content":
			m.Text, m.Blocks, hasContent = "", nil, true
			switch r.Peek() {
			case '"':
				m.Text = r.Str()
			case '[':
				r.BeginArray()
				m.Blocks = []B{}
				for first := true; r.NextElem(first); first = false {
					m.Blocks = append(m.Blocks, ReadBlock[T, B](r))
				}
			default:
				r.FailShape(ErrContent)
			}
		default:
			r.SkipUnknown()
		}
	}
	if r.Err == nil && !hasRole {
		r.Fail(ErrRole)
	}
	if r.Err == nil && !hasContent {
		r.Fail(ErrContent)
	}
	return M(m)
}

// knownRole returns role as an R, without allocating for the usual ones.
func knownRole[R ~string](role []byte) R {
	switch string(role) {
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	case "system":
		return "system"
	case "tool":
		return "tool"
	}
	return R(role)
}

// ReadBlock reads a content block: an object whose "type" is a string.
// The members of the types text, tool_call, tool_result, native and
// compaction must have the JSON types model.Block documents, where null
// counts as absent (except a compaction's null content, kept as
// NullContent); members a type does not define are skipped, noting
// r.Lossy. A block of any other type keeps its whole object in Raw. Of
// duplicate members the last wins, the last "type" included, but each
// must be valid.
func ReadBlock[T ~string, B ~BlockFields[T]](r *Reader) B {
	if r.Peek() != '{' {
		r.FailShape(ErrBlockObject)
		return B{}
	}
	start, depth := r.Pos, r.Depth
	r.BeginObject()
	// Writers put "type" first, so normally one pass suffices. If not, or
	// if anything went wrong but the syntax (a later "type" member may
	// differ), find the last type and read again.
	if key, ok := r.NextKey(true); ok && string(key) == "type" && r.Peek() == '"' {
		typ := blockType[T](r.StrBytes())
		b, conflict := readBlockTyped(r, typ, false, start)
		if r.Err == nil && !conflict || r.Err == ErrSyntax {
			return B(b)
		}
		r.Err = nil // a shape error may be moot if a later "type" differs
	} else if r.Err != nil {
		return B{}
	}
	r.Pos, r.Depth = start, depth
	typ, ok := SkimType(r, ErrBlockType)
	if !ok {
		return B{}
	}
	r.Pos, r.Depth = start, depth
	r.BeginObject()
	b, _ := readBlockTyped(r, blockType[T](typ), true, start)
	return B(b)
}

// blockIn names a block type in error messages.
func blockIn(typ string) string {
	switch typ {
	case blockText:
		return "text block"
	case blockToolCall:
		return "tool_call block"
	case blockToolResult:
		return "tool_result block"
	case blockNative:
		return "native block"
	case blockCompaction:
		return "compaction block"
	}
	return "block"
}

// blockType returns typ as a T, without allocating for the known types.
func blockType[T ~string](typ []byte) T {
	switch string(typ) {
	case blockText:
		return blockText
	case blockToolCall:
		return blockToolCall
	case blockToolResult:
		return blockToolResult
	case blockNative:
		return blockNative
	case blockCompaction:
		return blockCompaction
	}
	return T(typ)
}

// readBlockTyped reads the remaining members of a block of type typ whose
// '{' (and, unless first, its first member) were consumed; start is the
// offset of the '{'. conflict reports a later "type" member that differs.
func readBlockTyped[T ~string](r *Reader, typ T, first bool, start int) (b BlockFields[T], conflict bool) {
	b.Type = typ
	b.NullContent = typ == blockCompaction
	in := blockIn(string(typ))
	lossy := r.Lossy // a block of an unknown type keeps its members in Raw
	for {
		key, ok := r.NextKey(first)
		first = false
		if !ok {
			break
		}
		switch string(key) {
		case "type":
			if r.Peek() != '"' {
				r.FailShape(ErrBlockType)
				return b, true
			}
			conflict = string(r.StrBytes()) != string(typ) || conflict
		case "text":
			if typ != blockText {
				r.SkipUnknown()
				break
			}
			b.Text = r.StrField(in, "text")
		case "id":
			if typ != blockToolCall && typ != blockToolResult {
				r.SkipUnknown()
				break
			}
			b.ID = r.StrField(in, "id")
		case "name":
			if typ != blockToolCall {
				r.SkipUnknown()
				break
			}
			b.Name = r.StrField(in, "name")
		case "input":
			if typ != blockToolCall {
				r.SkipUnknown()
				break
			}
			b.Input = r.Raw()
		case "isError":
			if typ != blockToolResult {
				r.SkipUnknown()
				break
			}
			b.IsError = r.BoolField(in, "isError")
		case "provider":
			if typ != blockNative {
				r.SkipUnknown()
				break
			}
			b.Provider = r.StrField(in, "provider")
		case "data":
			if typ != blockNative {
				r.SkipUnknown()
				break
			}
			b.Data = r.Raw()
		case "content":
			switch typ {
			case blockToolResult:
				b.Content = r.StrField(in, "content")
			case blockCompaction:
				b.Content, b.NullContent = "", r.IsNull()
				if !b.NullContent {
					b.Content = r.StrField(in, "content")
				}
			default:
				r.SkipUnknown()
			}
		default:
			r.SkipUnknown()
		}
	}
	switch typ {
	case blockText, blockToolCall, blockToolResult, blockNative, blockCompaction:
	default:
		if r.Err == nil {
			b = BlockFields[T]{Type: typ, Raw: append(json.RawMessage(nil), r.Buf[start:r.Pos]...)}
			r.Lossy = lossy
		}
	}
	return b, conflict
}
