// Package model is the provider-neutral side of talking to a language
// model: conversation values (messages and their content blocks), requests
// and streamed responses, the [Provider] contract that model/anthropic and
// model/openai implement, retries around any provider ([WithRetry]), and
// middleware that sees and shapes every call of a provider ([Use],
// [Middleware]).
//
// Optional interfaces a Provider may implement, which the engine's context
// engine uses: [TokenCounter] to measure requests and [WindowReporter] for
// the context window of a model.
//
// The JSON form of [Message] and [Block] is the persisted format of session
// logs, so it is fixed: field names and shapes never change.
package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/jsonstr"
	"github.com/lite-agent/lite-agent-go/internal/msgjson"
)

// Role says who a [Message] is from.
type Role string

// The roles of a conversation.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// A Message is one turn of a conversation: a role plus either plain text or
// a list of content blocks.
//
// Its JSON form, which session logs persist, is
//
//	{"role":"user","content":"hi"}
//	{"role":"assistant","content":[{"type":"text","text":"hi"},{"type":"tool_call",…}]}
//
// "content" is the string Text when Blocks is nil and the array Blocks
// otherwise (an empty, non-nil Blocks is written as []), so a message read
// back is equal to the one written. Members other than role and content are
// ignored when reading.
type Message struct {
	// Role is who the message is from. Roles other than the four constants
	// are kept as they are.
	Role Role
	// Text is the content when Blocks is nil.
	Text string
	// Blocks is the content when it is not nil; Text is then ignored.
	Blocks []Block
}

// UserText returns a user message whose content is the string s.
func UserText(s string) Message { return Message{Role: RoleUser, Text: s} }

// AssistantText returns an assistant message whose content is the string s.
func AssistantText(s string) Message { return Message{Role: RoleAssistant, Text: s} }

// SystemText returns a system message whose content is the string s.
func SystemText(s string) Message { return Message{Role: RoleSystem, Text: s} }

// UserBlocks returns a user message whose content is blocks. With no blocks
// the content is an empty array, not a string.
func UserBlocks(blocks ...Block) Message {
	if blocks == nil {
		blocks = []Block{}
	}
	return Message{Role: RoleUser, Blocks: blocks}
}

// AssistantBlocks returns an assistant message whose content is blocks. With
// no blocks the content is an empty array, not a string.
func AssistantBlocks(blocks ...Block) Message {
	if blocks == nil {
		blocks = []Block{}
	}
	return Message{Role: RoleAssistant, Blocks: blocks}
}

// PlainText returns the message's text: Text when Blocks is nil, else the
// text of its text blocks joined with "\n".
func (m Message) PlainText() string {
	if m.Blocks == nil {
		return m.Text
	}
	var parts []string
	for _, b := range m.Blocks {
		if b.Type == BlockText {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// MarshalJSON encodes m as {"role":…,"content":…}, with content a string when
// Blocks is nil and an array otherwise.
func (m Message) MarshalJSON() ([]byte, error) {
	return m.AppendJSON(nil)
}

// AppendJSON appends the JSON form of m (see [Message.MarshalJSON]) to b.
// Strings are escaped as JavaScript's JSON.stringify escapes them, and the
// result holds no line breaks.
func (m Message) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"role":`...)
	b = jsonstr.Append(b, string(m.Role))
	b = append(b, `,"content":`...)
	if m.Blocks == nil {
		b = jsonstr.Append(b, m.Text)
		return append(b, '}'), nil
	}
	b = append(b, '[')
	for i, blk := range m.Blocks {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = blk.AppendJSON(b); err != nil {
			return nil, fmt.Errorf("message block %d: %w", i, err)
		}
	}
	return append(b, ']', '}'), nil
}

// UnmarshalJSON decodes a message. "role" must be a string and "content"
// a string or an array of blocks; anything else, null included, is an
// error. Of duplicate members the last wins, but each must be valid.
// Session logs are read by the same rules.
func (m *Message) UnmarshalJSON(data []byte) error {
	r := msgjson.Reader{Buf: data}
	out := msgjson.ReadMessage[Role, BlockType, Block, Message](&r)
	if err := r.End(); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	*m = out
	return nil
}

// BlockType names the kind of a content [Block].
type BlockType string

// The block types. Blocks of other types are kept verbatim in [Block.Raw].
const (
	BlockText       BlockType = "text"
	BlockToolCall   BlockType = "tool_call"
	BlockToolResult BlockType = "tool_result"
	BlockNative     BlockType = "native"
	BlockCompaction BlockType = "compaction"
)

// A Block is one piece of a message's content. Type says which fields are
// used; the JSON form of each type, as persisted in session logs, is
//
//	text         {"type":"text","text":…}
//	tool_call    {"type":"tool_call","id":…,"name":…,"input":<JSON>}
//	tool_result  {"type":"tool_result","id":…,"content":…}, plus "isError":true when IsError
//	native       {"type":"native","provider":…,"data":<JSON>}
//	compaction   {"type":"compaction","content":… or null}
//
// A block of any other type read from JSON keeps its whole JSON object in Raw
// and is written back unchanged, so newer logs survive older readers. Members
// a type does not define are ignored when reading.
type Block struct {
	// Type is the block type.
	Type BlockType
	// Text is the text of a text block.
	Text string
	// ID identifies a tool call; a tool_result repeats its call's ID.
	ID string
	// Name is the tool a tool_call block calls.
	Name string
	// Input is the JSON arguments of a tool_call block; nil is written as {}.
	Input json.RawMessage
	// Content is the output of a tool_result block, or the summary of a
	// compaction block (see NullContent).
	Content string
	// IsError marks a tool_result block as reporting a failure. It is
	// written only when true.
	IsError bool
	// Provider names the provider a native block belongs to.
	Provider string
	// Data is the provider's own JSON for a native block; nil is written
	// as null.
	Data json.RawMessage
	// NullContent marks a compaction block whose content is null; Content
	// is then "".
	NullContent bool
	// Raw is the whole JSON object of a block whose Type is none of the
	// constants above. It is written back as it is.
	Raw json.RawMessage
}

// TextBlock returns a text block.
func TextBlock(s string) Block { return Block{Type: BlockText, Text: s} }

// ToolCallBlock returns a tool_call block. input must be JSON (normally an
// object); nil means {}.
func ToolCallBlock(id, name string, input json.RawMessage) Block {
	return Block{Type: BlockToolCall, ID: id, Name: name, Input: input}
}

// ToolResultBlock returns a tool_result block answering the call id.
func ToolResultBlock(id, content string, isError bool) Block {
	return Block{Type: BlockToolResult, ID: id, Content: content, IsError: isError}
}

// NativeBlock returns a native block carrying a provider's own JSON.
func NativeBlock(provider string, data json.RawMessage) Block {
	return Block{Type: BlockNative, Provider: provider, Data: data}
}

// CompactionBlock returns a compaction block with the given summary.
func CompactionBlock(content string) Block { return Block{Type: BlockCompaction, Content: content} }

// MarshalJSON encodes b in the form its type defines (see [Block]).
func (b Block) MarshalJSON() ([]byte, error) {
	return b.AppendJSON(nil)
}

// AppendJSON appends the JSON form of b (see [Block]) to dst. Input, Data and
// Raw must hold valid JSON; they are written compacted, so the result holds
// no line breaks.
func (b Block) AppendJSON(dst []byte) ([]byte, error) {
	switch b.Type {
	case BlockText:
		dst = append(dst, `{"type":"text","text":`...)
		dst = jsonstr.Append(dst, b.Text)
	case BlockToolCall:
		dst = append(dst, `{"type":"tool_call","id":`...)
		dst = jsonstr.Append(dst, b.ID)
		dst = append(dst, `,"name":`...)
		dst = jsonstr.Append(dst, b.Name)
		dst = append(dst, `,"input":`...)
		var err error
		if dst, err = appendRaw(dst, b.Input, "{}"); err != nil {
			return nil, fmt.Errorf("tool_call input: %w", err)
		}
	case BlockToolResult:
		dst = append(dst, `{"type":"tool_result","id":`...)
		dst = jsonstr.Append(dst, b.ID)
		dst = append(dst, `,"content":`...)
		dst = jsonstr.Append(dst, b.Content)
		if b.IsError {
			dst = append(dst, `,"isError":true`...)
		}
	case BlockNative:
		dst = append(dst, `{"type":"native","provider":`...)
		dst = jsonstr.Append(dst, b.Provider)
		dst = append(dst, `,"data":`...)
		var err error
		if dst, err = appendRaw(dst, b.Data, "null"); err != nil {
			return nil, fmt.Errorf("native data: %w", err)
		}
	case BlockCompaction:
		dst = append(dst, `{"type":"compaction","content":`...)
		if b.NullContent {
			dst = append(dst, "null"...)
		} else {
			dst = jsonstr.Append(dst, b.Content)
		}
	default:
		if b.Raw == nil {
			dst = append(dst, `{"type":`...)
			dst = jsonstr.Append(dst, string(b.Type))
			break
		}
		trimmed := bytes.TrimSpace(b.Raw)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return nil, fmt.Errorf("block of type %q: raw JSON must be an object", b.Type)
		}
		return appendRaw(dst, b.Raw, "")
	}
	return append(dst, '}'), nil
}

// UnmarshalJSON decodes a block. "type" must be a string; the members of a
// known type must have the JSON types the type defines, where null counts
// as absent (except a compaction's null content, kept as NullContent). Of
// duplicate members the last wins, but each must be valid. Session logs are
// read by the same rules.
func (b *Block) UnmarshalJSON(data []byte) error {
	r := msgjson.Reader{Buf: data}
	out := msgjson.ReadBlock[BlockType, Block](&r)
	if err := r.End(); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	*b = out
	return nil
}

// appendRaw appends the compacted form of raw JSON, or def when raw is nil.
func appendRaw(dst []byte, raw json.RawMessage, def string) ([]byte, error) {
	if raw == nil {
		return append(dst, def...), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, errors.New("invalid JSON")
	}
	return append(dst, buf.Bytes()...), nil
}
