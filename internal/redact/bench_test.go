package redact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// benchText returns about size bytes of deterministic text of a kind:
// Go source code, a server log with a handful of secrets in it (a
// password, a bearer token, an e-mail address, an AWS key id, an OpenAI
// key), English prose, or the JSON a tool returns.
func benchText(kind string, size int) string {
	rng := rand.New(rand.NewPCG(1, uint64(len(kind))))
	words := strings.Fields(`the a of to and in that is was for it with as on be at by this had not are but from or
		have an they which one you were all we her she there would their will when who him been has more if no out so
		said what up its about than into them can only other new some could time these two may then do first any my
		now such like our over man me even most made after also did many before must through back years where much
		your way well down should because each just those people how too little state good very make world still own
		see men work long get here between both life being under never day same another know while last might us
		great old year off come since against go came right used take three token secret key access password basic`)
	pick := func() string { return words[rng.IntN(len(words))] }
	every := max(1, size/1200) // about five lines with secrets per log
	var b strings.Builder
	for line := 0; b.Len() < size; line++ {
		switch kind {
		case "code":
			switch rng.IntN(8) {
			case 0:
				fmt.Fprintf(&b, "// %s %s %s %s, %s %s.\n", pick(), pick(), pick(), pick(), pick(), pick())
			case 1:
				fmt.Fprintf(&b, "func (p *parser) %s%d(tok token, n int) (string, error) {\n", pick(), line)
			case 2:
				fmt.Fprintf(&b, "\tif err := p.%s(ctx, %q); err != nil {\n\t\treturn \"\", fmt.Errorf(\"%s: %%w\", err)\n\t}\n", pick(), pick(), pick())
			case 3:
				fmt.Fprintf(&b, "\tfor i := 0; i < len(p.buf); i++ {\n\t\tp.buf[i] = byte(i * %d)\n\t}\n", line)
			case 4:
				fmt.Fprintf(&b, "\t%s_%s := map[string]int{\"%s\": %d, \"%s\": %d}\n", pick(), pick(), pick(), line, pick(), rng.IntN(1000))
			case 5:
				fmt.Fprintf(&b, "\treturn strings.TrimSpace(%s.String()), nil\n}\n\n", pick())
			case 6:
				fmt.Fprintf(&b, "\t// TODO(someone@example.org): %s the %s\n", pick(), pick())
			default:
				fmt.Fprintf(&b, "\tx%d := p.next() + %d // %s\n", line, rng.IntN(99), pick())
			}
		case "log":
			fmt.Fprintf(&b, "2026-12-02T13:%02d:%02d.%03dZ %s request_id=%08x method=GET path=/api/v1/%s/%d status=%d duration=%dms user_agent=\"curl/8.5.0\" msg=\"%s %s %s\"\n",
				line/60%60, line%60, rng.IntN(1000), []string{"INFO", "WARN", "DEBUG", "ERROR"}[rng.IntN(4)],
				rng.Uint32(), pick(), rng.IntN(10000), []int{200, 201, 304, 404, 500}[rng.IntN(5)], rng.IntN(900), pick(), pick(), pick())
			if line%every == every/2 {
				fmt.Fprintf(&b, "2026-12-02T13:00:00.000Z DEBUG headers Authorization: Bearer abcDEF%06d.xyz password=hunter%04d user=ops%d@example.com key=AKIA%016d sk-%020d\n",
					line, line, line, line, line)
			}
		case "prose":
			n := 8 + rng.IntN(12)
			for i := range n {
				w := pick()
				if i == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				b.WriteString(w)
				if i < n-1 {
					if rng.IntN(9) == 0 {
						b.WriteByte(',')
					}
					b.WriteByte(' ')
				}
			}
			b.WriteString(". ")
			if rng.IntN(6) == 0 {
				b.WriteString("\n\n")
			}
		case "json":
			fmt.Fprintf(&b, `{"path":"src/%s/%s_%d.go","size":%d,"mode":"0644","modified":"2026-11-%02dT10:%02d:00Z","summary":"%s %s %s","tags":["%s","%s"]},`+"\n",
				pick(), pick(), line, rng.IntN(100000), 1+rng.IntN(30), rng.IntN(60), pick(), pick(), pick(), pick(), pick())
		default:
			panic(kind)
		}
	}
	return b.String()
}

// BenchmarkString measures String (new) against the redactor it replaced
// (oracle) on the same texts, in one binary:
//
//	go test ./internal/redact -run x -bench String -count 6
func BenchmarkString(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"64KB", 64 << 10}, {"1MB", 1 << 20}} {
		for _, kind := range []string{"code", "log", "prose", "json"} {
			text := benchText(kind, size.n)
			if got, want := String(text), oracleString(text); got != want {
				b.Fatalf("%s-%s: String and oracleString differ", kind, size.name)
			}
			for _, impl := range []struct {
				name string
				f    func(string) string
			}{{"new", String}, {"oracle", oracleString}} {
				b.Run(kind+"-"+size.name+"/"+impl.name, func(b *testing.B) {
					b.SetBytes(int64(len(text)))
					for b.Loop() {
						impl.f(text)
					}
				})
			}
		}
	}
}
