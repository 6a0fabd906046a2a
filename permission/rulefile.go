package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/strictjson"
)

// Limits of rule files.
const (
	// MaxRuleFileSize is the largest rule file accepted, in bytes.
	MaxRuleFileSize = 1 << 20
	maxRules        = 10000
	maxJSONDepth    = 64
	maxIDLen        = 200
	maxDescLen      = 2000
)

// RuleFileVersion is the version of the rule file format.
const RuleFileVersion = 1

// A ConfigError reports a rule file or rule that cannot be used. It names
// the file (empty when decoding bytes) and the place in the document, and
// never quotes the file's values, which may be secrets.
type ConfigError struct {
	// File is the rule file; "" for [DecodeRules] on bytes.
	File string
	// Path locates the problem in the document, such as
	// `rules[2].when["command"]`; "" for the document as a whole.
	Path string
	// Msg says what is wrong.
	Msg string
	// Err is the underlying error, such as a file system error.
	Err error
}

// Error returns "invalid permission configuration: <file>: <path>: <msg>",
// leaving out the parts that are empty.
func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString("invalid permission configuration")
	if e.File != "" {
		b.WriteString(": ")
		b.WriteString(e.File)
	}
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns e.Err.
func (e *ConfigError) Unwrap() error { return e.Err }

// DecodeRules decodes a rule file:
//
//	{"version": 1, "rules": [
//	  {"id": "no-secrets", "tool": ["read_file", "write_file"], "when": {"path": {"glob": "secrets/**"}}, "effect": "deny"},
//	  {"tool": "bash", "when": {"command": {"startsWith": "git push"}}, "effect": "ask"}
//	]}
//
// The decoding is strict: the data must be valid UTF-8 of at most
// [MaxRuleFileSize] bytes holding one JSON object; no object may repeat a
// key; unknown keys are rejected at every level; "version" must be 1;
// "effect" must be "allow", "ask" or "deny"; "tool" is a non-empty string
// or a non-empty list of them; every condition is an object with exactly one
// operator, and its regex or glob must compile. "rules" may be left out.
// Errors are *[ConfigError].
func DecodeRules(data []byte) ([]Rule, error) {
	doc, err := decodeStrict(data)
	if err != nil {
		return nil, err
	}
	return rulesFromDoc(doc)
}

func cfgErr(path, format string, args ...any) error {
	return &ConfigError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// decodeStrict decodes one JSON document with [strictjson.Decode],
// turning its errors into *ConfigError. Numbers stay json.Number and
// objects *strictjson.Object.
func decodeStrict(data []byte) (any, error) {
	if len(data) > MaxRuleFileSize {
		return nil, cfgErr("", "the file is larger than %d bytes", MaxRuleFileSize)
	}
	v, err := strictjson.Decode(data, maxJSONDepth)
	var se *strictjson.Error
	if errors.As(err, &se) {
		return nil, &ConfigError{Path: se.Path, Msg: se.Detail()}
	}
	return v, err
}

// checkKeys rejects keys of obj that are not in allowed.
func checkKeys(obj *strictjson.Object, path string, allowed ...string) error {
	for _, k := range obj.Keys {
		if !slices.Contains(allowed, k) {
			return cfgErr(strictjson.ChildPath(path, k), "unknown key (allowed: %s)", strings.Join(allowed, ", "))
		}
	}
	return nil
}

// rulesFromDoc checks a decoded document against the schema.
func rulesFromDoc(doc any) ([]Rule, error) {
	obj, ok := doc.(*strictjson.Object)
	if !ok {
		return nil, cfgErr("", "the document must be an object, not %s", strictjson.TypeName(doc))
	}
	if err := checkKeys(obj, "", "version", "rules"); err != nil {
		return nil, err
	}
	v, ok := obj.Vals["version"]
	if !ok {
		return nil, cfgErr("version", "missing")
	}
	if n, ok := v.(json.Number); !ok || string(n) != strconv.Itoa(RuleFileVersion) {
		return nil, cfgErr("version", "unsupported version (want %d)", RuleFileVersion)
	}
	raw, ok := obj.Vals["rules"]
	if !ok {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, cfgErr("rules", "must be a list, not %s", strictjson.TypeName(raw))
	}
	if len(list) > maxRules {
		return nil, cfgErr("rules", "more than %d rules", maxRules)
	}
	rules := make([]Rule, 0, len(list))
	for i, item := range list {
		r, err := ruleFromJSON(item, "rules["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}

func ruleFromJSON(item any, path string) (Rule, error) {
	obj, ok := item.(*strictjson.Object)
	if !ok {
		return Rule{}, cfgErr(path, "a rule must be an object, not %s", strictjson.TypeName(item))
	}
	if err := checkKeys(obj, path, "id", "description", "tool", "when", "effect"); err != nil {
		return Rule{}, err
	}
	var r Rule
	if v, ok := obj.Vals["id"]; ok {
		s, ok := v.(string)
		switch {
		case !ok:
			return Rule{}, cfgErr(path+".id", "must be a string, not %s", strictjson.TypeName(v))
		case s == "" || len(s) > maxIDLen || strings.ContainsFunc(s, isControl):
			return Rule{}, cfgErr(path+".id", "must be 1 to %d printable characters", maxIDLen)
		}
		r.ID = s
	}
	if v, ok := obj.Vals["description"]; ok {
		s, ok := v.(string)
		if !ok {
			return Rule{}, cfgErr(path+".description", "must be a string, not %s", strictjson.TypeName(v))
		}
		if len(s) > maxDescLen {
			return Rule{}, cfgErr(path+".description", "longer than %d bytes", maxDescLen)
		}
		r.Description = s
	}
	if v, ok := obj.Vals["tool"]; ok {
		switch t := v.(type) {
		case string:
			r.Tool = []string{t}
		case []any:
			if len(t) == 0 {
				return Rule{}, cfgErr(path+".tool", "an empty list matches no tool; leave tool out to match every tool")
			}
			for i, e := range t {
				s, ok := e.(string)
				if !ok {
					return Rule{}, cfgErr(path+".tool["+strconv.Itoa(i)+"]", "must be a string, not %s", strictjson.TypeName(e))
				}
				r.Tool = append(r.Tool, s)
			}
		default:
			return Rule{}, cfgErr(path+".tool", "must be a string or a list of strings, not %s", strictjson.TypeName(v))
		}
		for i, t := range r.Tool {
			if t == "" {
				return Rule{}, cfgErr(path+".tool["+strconv.Itoa(i)+"]", "empty tool glob")
			}
			if err := checkToolGlob(t); err != nil {
				return Rule{}, cfgErr(path+".tool["+strconv.Itoa(i)+"]", "%v", err)
			}
			if _, err := compileGlob(t); err != nil {
				return Rule{}, cfgErr(path+".tool["+strconv.Itoa(i)+"]", "%v", err)
			}
		}
	}
	if v, ok := obj.Vals["when"]; ok {
		w, ok := v.(*strictjson.Object)
		if !ok {
			return Rule{}, cfgErr(path+".when", "must be an object, not %s", strictjson.TypeName(v))
		}
		r.When = make(map[string]Condition, len(w.Keys))
		for _, k := range w.Keys {
			sub := path + ".when[" + strconv.Quote(clip(k)) + "]" // dot paths are always quoted
			if k == "" || strings.HasPrefix(k, ".") || strings.HasSuffix(k, ".") || strings.Contains(k, "..") {
				return Rule{}, cfgErr(sub, "a condition key is a dot path such as \"path\" or \"options.mode\"")
			}
			c, err := conditionFromJSON(w.Vals[k], sub, 0)
			if err != nil {
				return Rule{}, err
			}
			r.When[k] = c
		}
	}
	v, ok := obj.Vals["effect"]
	if !ok {
		return Rule{}, cfgErr(path+".effect", "missing")
	}
	s, _ := v.(string)
	d, err := ParseDecision(s)
	if err != nil {
		return Rule{}, cfgErr(path+".effect", "must be \"allow\", \"ask\" or \"deny\"")
	}
	r.Effect = d
	return r, nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func conditionFromJSON(v any, path string, depth int) (Condition, error) {
	if depth > maxCondDepth {
		return Condition{}, cfgErr(path, "conditions nest too deeply")
	}
	obj, ok := v.(*strictjson.Object)
	if !ok {
		return Condition{}, cfgErr(path, "a condition must be an object, not %s", strictjson.TypeName(v))
	}
	if len(obj.Keys) != 1 {
		return Condition{}, cfgErr(path, "a condition must have exactly one of equals, in, regex, glob, startsWith, contains, not")
	}
	if err := checkKeys(obj, path, opNames[1:]...); err != nil {
		return Condition{}, err
	}
	for _, op := range obj.Keys {
		operand := obj.Vals[op]
		sub := path + "." + op
		switch op {
		case "equals":
			return Condition{op: opEquals, value: strictjson.Plain(operand)}, nil
		case "in":
			if _, ok := operand.([]any); !ok {
				return Condition{}, cfgErr(sub, "must be a list, not %s", strictjson.TypeName(operand))
			}
			return Condition{op: opIn, value: strictjson.Plain(operand)}, nil
		case "not":
			inner, err := conditionFromJSON(operand, sub, depth+1)
			if err != nil {
				return Condition{}, err
			}
			return Not(inner), nil
		}
		s, ok := operand.(string)
		if !ok {
			return Condition{}, cfgErr(sub, "must be a string, not %s", strictjson.TypeName(operand))
		}
		if len(s) > maxPatternLen {
			return Condition{}, cfgErr(sub, "longer than %d bytes", maxPatternLen)
		}
		var c Condition
		switch op {
		case "regex":
			c = Regex(s)
		case "glob":
			c = Glob(s)
		case "startsWith":
			c = StartsWith(s)
		default:
			c = Contains(s)
		}
		if _, err := compileCondition(c, nil, false, false); err != nil {
			return Condition{}, cfgErr(sub, "%v", err)
		}
		return c, nil
	}
	return Condition{}, cfgErr(path, "empty condition")
}

// EncodeRules returns the rule file holding rules, in the format
// [DecodeRules] reads. Rules with invalid effects or conditions fail.
func EncodeRules(rules []Rule) ([]byte, error) {
	type fileRule struct {
		ID          string               `json:"id,omitempty"`
		Description string               `json:"description,omitempty"`
		Tool        []string             `json:"tool,omitempty"`
		When        map[string]Condition `json:"when,omitempty"`
		Effect      Decision             `json:"effect"`
	}
	doc := struct {
		Version int        `json:"version"`
		Rules   []fileRule `json:"rules"`
	}{Version: RuleFileVersion, Rules: []fileRule{}}
	for _, r := range rules {
		doc.Rules = append(doc.Rules, fileRule{r.ID, r.Description, r.Tool, r.When, r.Effect})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
