package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/edit"
)

// A template is a compiled --format TEMPLATE: text with {name} fields
// replaced by parts of each URL.
//
// Fields: {scheme} {user} {password} {host} {port} {path} {search}
// {fragment} {url}; {search:KEY}, the decoded value of the first pair with
// that key (control characters encoded again), or as written with
// {:search:KEY}; {search-all:KEY}, every such value separated by spaces;
// {default:port}, the port or the scheme's default when none is given.
// Components print as written, still encoded; {path} is the path with the
// "/" that follows the host. A component the URL does not have prints as
// nothing. trurl's spellings are accepted too: {query}, {query:KEY} and
// {query-all:KEY} for the search part, and {:name} or {url:name} for a
// component as written (which is what urlkit prints anyway). "{{" and "}}"
// are literal braces; \n, \t and \\ are a newline, a tab and a backslash.
type template []templatePiece

type templatePiece struct {
	text    string // literal text, when field is ""
	field   string // the field name, e.g. "host", "search:"
	key     string // the key of {search:KEY}
	all     bool   // {search-all:KEY}: every value, not the first
	encoded bool   // {:search:KEY}: the value as written, not decoded
}

// formatOther are the fields a template may name besides the parts of
// parts.go (the names escape and edit take).
var formatOther = []string{"url", "default:port"}

// formatFieldList lists every field for messages and help.
func formatFieldList() string {
	var b strings.Builder
	for _, p := range urlParts {
		b.WriteString("{" + p.name + "} ")
	}
	for _, f := range formatOther {
		b.WriteString("{" + f + "} ")
	}
	return b.String() + "{search:KEY} {search-all:KEY}"
}

// parseTemplate compiles a --format template. An unknown field or an
// unclosed "{" is an error naming its offset in the template.
func parseTemplate(s string) (template, error) {
	var t template
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t = append(t, templatePiece{text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte(`nt\`, s[i+1]) >= 0:
			lit.WriteByte(map[byte]byte{'n': '\n', 't': '\t', '\\': '\\'}[s[i+1]])
			i++
		case (c == '{' || c == '}') && i+1 < len(s) && s[i+1] == c:
			lit.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, fmt.Errorf(`offset %d in template: "{" without a closing "}"`, i)
			}
			name := s[i+1 : i+end]
			p, err := templateField(name)
			if err != nil {
				return nil, fmt.Errorf("offset %d in template: %v", i, err)
			}
			flush()
			t = append(t, p)
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return t, nil
}

func templateField(name string) (templatePiece, error) {
	encoded := false
	if rest, ok := strings.CutPrefix(name, ":"); ok {
		name, encoded = rest, true
	} else if rest, ok := strings.CutPrefix(name, "url:"); ok {
		name, encoded = rest, true
	}
	if a, ok := partAliases[name]; ok {
		name = a
	}
	for _, k := range []string{"search:", "query:", "search-all:", "query-all:"} {
		if key, ok := strings.CutPrefix(name, k); ok {
			return templatePiece{field: "search:", key: key, all: strings.Contains(k, "-all"), encoded: encoded}, nil
		}
	}
	if _, part := partByName(name); !part && !slices.Contains(formatOther, name) {
		return templatePiece{}, fmt.Errorf("unknown field {%s}: the fields are %s", name, formatFieldList())
	}
	return templatePiece{field: name}, nil
}

// apply writes u through the template.
func (t template) apply(u urlkit.URL) string {
	var b strings.Builder
	parts := u.Parts()
	for _, p := range t {
		switch p.field {
		case "":
			b.WriteString(p.text)
		case "scheme":
			b.WriteString(u.Scheme())
		case "user":
			b.WriteString(parts.User)
		case "password":
			b.WriteString(parts.Password)
		case "host":
			b.WriteString(parts.Host)
		case "port":
			b.WriteString(parts.Port)
		case "default:port":
			if n, _ := u.Port(); parts.Port == "" && n != 0 {
				b.WriteString(strconv.Itoa(n))
			} else {
				b.WriteString(parts.Port)
			}
		case "path":
			b.WriteString(u.PathWithSlash())
		case "search":
			b.WriteString(parts.Search)
		case "fragment":
			b.WriteString(parts.Fragment)
		case "opaque":
			if u.IsAbsolute() && !u.HasAuthority() {
				b.WriteString(u.Opaque())
			}
		case "url":
			b.WriteString(u.String())
		case "search:":
			p.writeSearchValues(&b, u)
		}
	}
	return b.String()
}

// writeSearchValues writes the value of the first pair with the piece's
// key, or of every such pair separated by spaces; decoded, or as written.
func (p templatePiece) writeSearchValues(b *strings.Builder, u urlkit.URL) {
	pairs, _ := edit.SearchPairs(u)
	n := 0
	for _, pair := range pairs {
		if pair.Key != p.key {
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		n++
		if p.encoded {
			_, v, _ := strings.Cut(pair.String(), "=")
			b.WriteString(v)
		} else {
			writeVisible(b, pair.Value)
		}
		if !p.all {
			return
		}
	}
}

// writeVisible writes a decoded value with its control characters
// percent-encoded again, so that one URL stays one line and no terminal
// control sequence reaches the output.
func writeVisible(b *strings.Builder, v string) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c == 0x7f {
			fmt.Fprintf(b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
}

// formatUsage is the help text of the --format flag.
var formatUsage = "print each URL through `TEMPLATE`: " + formatFieldList()

// formatFlag compiles the --format flag of fs: nil when the command has
// none or it is not set.
func formatFlag(fs *flag.FlagSet) (template, error) {
	f := fs.Lookup("format")
	if f == nil || f.Value.String() == "" {
		return nil, nil
	}
	return parseTemplate(f.Value.String())
}
