package permission

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// maxPrintfOutput bounds the text printfOutput makes of one printf.
const maxPrintfOutput = 64 << 10

// printfWords returns the names in what c prints when it is printf with a
// format and operands the analysis knows: bash applies the format to the
// operands, so printf '%s/%s/%s' sub s id_ed25519 prints
// sub/s/id_ed25519, a name none of its words is (cat $(printf …) and
// printf … | xargs cat read the key, round 105). Nil for any other
// command.
func printfWords(c shellscan.Command) []string {
	if path.Base(c.Name) != "printf" {
		return nil
	}
	args := c.Args
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-v") {
		return nil
	}
	out := printfOutput(args[0], args[1:])
	return append([]string{out}, embeddedWords(out+"\n")...)
}

// printfOutput returns what bash's printf prints given format and args:
// the format is applied again while operands are left; escapes are
// decoded in the format and in %b's operands (see decodeEscapes). A
// conversion it does not know prints its operand as %s does.
func printfOutput(format string, args []string) string {
	var b strings.Builder
	for pass := 0; pass < 1+len(args) && b.Len() < maxPrintfOutput; pass++ {
		used := 0
		next := func() (string, bool) {
			if len(args) == 0 {
				return "", false
			}
			a := args[0]
			args, used = args[1:], used+1
			return a, true
		}
		for i := 0; i < len(format); i++ {
			if format[i] != '%' || i+1 >= len(format) {
				j := strings.IndexByte(format[i+1:], '%')
				if j < 0 {
					j = len(format)
				} else {
					j += i + 1
				}
				b.WriteString(decodeEscapes(format[i:j]))
				i = j - 1
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.*", format[j]) >= 0 {
				j++
			}
			if j == len(format) {
				b.WriteString(format[i:])
				break
			}
			spec, conv := format[i+1:j], format[j]
			i = j
			if conv == '%' {
				b.WriteByte('%')
				continue
			}
			for strings.Contains(spec, "*") {
				n, _ := next()
				if _, err := strconv.Atoi(n); err != nil {
					n = "0"
				}
				spec = strings.Replace(spec, "*", n, 1)
			}
			a, _ := next()
			b.WriteString(printfConversion(spec, conv, a))
		}
		if used == 0 || len(args) == 0 {
			break
		}
	}
	return b.String()
}

// printfConversion returns one conversion of printfOutput: %spec conv
// of the operand a.
func printfConversion(spec string, conv byte, a string) string {
	switch conv {
	case 'd', 'i', 'u', 'x', 'X', 'o', 'c', 'e', 'E', 'f', 'F', 'g', 'G':
	default:
		if conv == 'b' {
			a = decodeEscapes(a)
		}
		return fmt.Sprintf("%"+spec+"s", a)
	}
	if conv == 'c' {
		if a == "" {
			return ""
		}
		return a[:1]
	}
	if strings.IndexByte("eEfFgG", conv) >= 0 {
		f, _ := strconv.ParseFloat(a, 64)
		return fmt.Sprintf("%"+spec+string(conv), f)
	}
	n, err := strconv.ParseInt(a, 0, 64)
	if err != nil && len(a) > 1 && (a[0] == '\'' || a[0] == '"') {
		n = int64(a[1]) // 'c is the character's code
	}
	switch conv {
	case 'x', 'X', 'o':
		return fmt.Sprintf("%"+spec+string(conv), n)
	}
	return fmt.Sprintf("%"+spec+"d", n)
}
