package shellscan

import "strings"

// ghRemoteWrite returns why gh args changes what lives on GitHub rather
// than in the workdir, or "": gh api with a method other than GET or HEAD,
// or with fields (-f, -F, --field, --raw-field) or --input and no
// method, which make it a POST (gh api graphql is a POST for queries too:
// only a field that may hold a mutation, a file or standard input as a
// field's value, or --input write), a header that may override the
// method; and gh repo delete, which removes a repository for good. The
// cost: these ask (gh api repos/o/r and gh api -X GET … -f q=x do not).
func ghRemoteWrite(args []word) string {
	if len(args) == 0 {
		return ""
	}
	if args[0].text == "repo" && len(args) > 1 && args[1].text == "delete" {
		return "gh repo delete removes a repository on GitHub"
	}
	if args[0].text != "api" {
		return ""
	}
	const why = "gh api with a method other than GET, fields or --input changes what lives on GitHub"
	method, endpoint := "", ""
	fields, input := []string(nil), false
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a.dynamic {
			return "gh api gets a word only known when it runs"
		}
		t := a.text
		next := func() string {
			if i+1 < len(rest) {
				i++
				if rest[i].dynamic {
					return "\x00"
				}
				return rest[i].text
			}
			return ""
		}
		name, value, hasValue := strings.Cut(t, "=")
		switch {
		case t == "--":
			i = len(rest)
		case t == "-X" || name == "--method" || strings.HasPrefix(t, "-X"):
			switch {
			case t == "-X" || t == "--method":
				method = next()
			case hasValue && name == "--method":
				method = value
			default:
				method = strings.TrimPrefix(t, "-X")
			}
		case t == "-f" || t == "-F" || t == "--field" || t == "--raw-field":
			fields = append(fields, next())
		case strings.HasPrefix(t, "-f") || strings.HasPrefix(t, "-F") && !strings.HasPrefix(t, "--"):
			fields = append(fields, t[2:])
		case name == "--field" || name == "--raw-field":
			fields = append(fields, value)
		case t == "--input" || name == "--input":
			input = true
			if t == "--input" {
				next()
			}
		case t == "-H" || t == "--header" || name == "--header" || strings.HasPrefix(t, "-H"):
			h := value
			if t == "-H" || t == "--header" {
				h = next()
			} else if strings.HasPrefix(t, "-H") {
				h = t[2:]
			}
			if strings.Contains(strings.ToLower(h), "method") || h == "\x00" {
				return why
			}
		case !strings.HasPrefix(t, "-") && endpoint == "":
			endpoint = t
		}
	}
	method = strings.ToUpper(method)
	if method == "\x00" {
		return "gh api gets a word only known when it runs"
	}
	if method == "" && (len(fields) > 0 || input) {
		method = "POST"
		if strings.TrimPrefix(endpoint, "/") == "graphql" && !input {
			method = "GET"
			for _, f := range fields {
				_, v, _ := strings.Cut(f, "=")
				if f == "\x00" || strings.Contains(strings.ToLower(f), "mutation") || strings.HasPrefix(v, "@") {
					method = "POST"
				}
			}
		}
	}
	if method != "" && method != "GET" && method != "HEAD" {
		return why
	}
	return ""
}
