// Package rfcbnf turns the BNF of RFC 1738 section 5, read from the RFC's
// own text (../shared/spec/rfc1738.txt), into a recognizer and a generator,
// mechanically: the rules are parsed from the text at run time, so no table
// is shared with urlkit's parser (parse.go, internal/chars) and nothing is
// copied from it. It is the independent oracle of "accepts exactly RFC
// 1738": tests generate URLs from a scheme's rule and require urlkit to
// accept them, and mutate them and require urlkit and the recognizer to
// agree (internal/testkit/rfcbnf's tests, and the conformance suites' rejection
// classes).
//
// The notation is RFC 1738 5's: rule = alternatives separated by "|",
// literals in double quotes (<"> is the double quote), [optional] elements,
// <n>*element for n or more repetitions (n defaults to 0), ";" comments.
// Two readings of the text are needed and made here, each said where it is
// made: the page breaks inside the section are dropped, and gopherurl's
// unquoted "/" is read as the literal "/".
package rfcbnf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// Kinds of expression.
const (
	kLit = iota // a literal string
	kRef        // a rule name
	kSeq        // a sequence
	kAlt        // alternatives
	kOpt        // [ optional ]
	kRep        // n*element
)

// An Expr is a parsed right-hand side.
type Expr struct {
	Kind int
	Lit  string  // kLit
	Name string  // kRef
	Min  int     // kRep: at least Min repetitions
	Sub  []*Expr // kSeq, kAlt: the parts; kOpt, kRep: one
}

// A Rule is one named rule as read.
type Rule struct {
	Name   string
	Text   string // the rule as written, on one line
	Source string // where it comes from ("RFC 1738 5", or an extension's source)
	Expr   *Expr
}

// SpecPath returns the path of RFC 1738's text: $URLKIT_SPEC_DIR/rfc1738.txt
// if set, else ../shared/spec/rfc1738.txt beside the module.
func SpecPath() string {
	if d := os.Getenv("URLKIT_SPEC_DIR"); d != "" {
		return filepath.Join(d, "rfc1738.txt")
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "spec", "rfc1738.txt")
}

// ErrNoSection is returned when the text has no section 5.
var ErrNoSection = errors.New("rfcbnf: no \"5. BNF for specific URL schemes\" section in the text")

// pageBreak matches the lines of RFC 1738's page breaks: the footer, the
// header and the form feed.
var pageBreak = regexp.MustCompile(`^(Berners-Lee, Masinter & McCahill\s+\[Page \d+\]|RFC 1738\s+Uniform Resource Locators \(URL\)\s+December 1994|\f)\s*$`)

var ruleStart = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+_-]*)\s+=\s*(.*)$`)

// Section5 returns the rule lines of RFC 1738's section 5 from the RFC's
// text: from the first rule to "6. Security Considerations", page breaks
// and comment lines dropped, each rule joined onto one line.
func Section5(text string) ([]string, error) {
	text = strings.ReplaceAll(text, "\r", "")
	start := strings.Index(text, "\n5. BNF for specific URL schemes")
	end := strings.Index(text, "\n6. Security Considerations")
	if start < 0 || end < start {
		return nil, ErrNoSection
	}
	var rules []string
	for _, line := range strings.Split(text[start:end], "\n") {
		line = strings.TrimRight(line, " \t")
		switch {
		case pageBreak.MatchString(line) || strings.TrimSpace(line) == "" || strings.HasPrefix(line, ";"):
		case ruleStart.MatchString(line):
			rules = append(rules, line)
		case len(rules) > 0 && (line[0] == ' ' || line[0] == '\t'):
			// A continuation of the rule before (indented).
			rules[len(rules)-1] += " " + strings.TrimSpace(line)
		}
	}
	if len(rules) == 0 {
		return nil, ErrNoSection
	}
	return rules, nil
}

// parseRules parses rule lines into rules.
func parseRules(lines []string, source string) ([]*Rule, error) {
	var out []*Rule
	for _, line := range lines {
		m := ruleStart.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("rfcbnf: %q is not a rule", line)
		}
		toks, err := tokenize(m[2])
		if err != nil {
			return nil, fmt.Errorf("rfcbnf: rule %s: %w", m[1], err)
		}
		p := &parser{toks: toks}
		e, err := p.alt()
		if err == nil && p.i < len(p.toks) {
			err = fmt.Errorf("unexpected %q", p.toks[p.i].s)
		}
		if err != nil {
			return nil, fmt.Errorf("rfcbnf: rule %s: %w", m[1], err)
		}
		text := m[1] + " = " + strings.Join(strings.Fields(stripComment(m[2])), " ")
		out = append(out, &Rule{Name: m[1], Text: text, Source: source, Expr: e})
	}
	return out, nil
}

type token struct {
	kind byte // 'l' literal, 'n' name, 'r' repetition prefix, or the punctuation itself: | [ ]
	s    string
	n    int
}

var repPrefix = regexp.MustCompile(`^(\d*)\*`)

// tokenize splits a right-hand side into tokens, dropping a ";" comment
// outside quotes.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == ';':
			return out, nil // a comment runs to the end of the line
		case c == '"':
			k := strings.IndexByte(s[i+1:], '"')
			if k < 0 {
				return nil, fmt.Errorf("unterminated literal at %q", s[i:])
			}
			out = append(out, token{kind: 'l', s: s[i+1 : i+1+k]})
			i += k + 2
		case strings.HasPrefix(s[i:], `<">`):
			out = append(out, token{kind: 'l', s: `"`})
			i += 3
		case c == '|' || c == '[' || c == ']':
			out = append(out, token{kind: c, s: string(c)})
			i++
		case c == '/':
			// gopherurl writes its slash unquoted ("[ / [ gtype ..."):
			// read as the literal "/", as everywhere else in the section.
			out = append(out, token{kind: 'l', s: "/"})
			i++
		case repPrefix.MatchString(s[i:]):
			m := repPrefix.FindStringSubmatch(s[i:])
			n := 0
			fmt.Sscan(m[1], &n)
			out = append(out, token{kind: 'r', n: n, s: m[0]})
			i += len(m[0])
		case isNameByte(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			out = append(out, token{kind: 'n', s: s[i:j]})
			i = j
		default:
			return nil, fmt.Errorf("unexpected %q", s[i:])
		}
	}
	return out, nil
}

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '+' || c == '_'
}

// stripComment drops a ";" comment outside quotes.
func stripComment(line string) string {
	in := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			in = !in
		case ';':
			if !in {
				return line[:i]
			}
		}
	}
	return line
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() byte {
	if p.i < len(p.toks) {
		return p.toks[p.i].kind
	}
	return 0
}

func (p *parser) alt() (*Expr, error) {
	var alts []*Expr
	for {
		e, err := p.seq()
		if err != nil {
			return nil, err
		}
		alts = append(alts, e)
		if p.peek() != '|' {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &Expr{Kind: kAlt, Sub: alts}, nil
}

func (p *parser) seq() (*Expr, error) {
	var items []*Expr
	for {
		switch p.peek() {
		case 'l', 'n', 'r', '[':
			e, err := p.item()
			if err != nil {
				return nil, err
			}
			items = append(items, e)
			continue
		}
		break
	}
	switch len(items) {
	case 0:
		return nil, fmt.Errorf("empty alternative")
	case 1:
		return items[0], nil
	}
	return &Expr{Kind: kSeq, Sub: items}, nil
}

func (p *parser) item() (*Expr, error) {
	t := p.toks[p.i]
	p.i++
	switch t.kind {
	case 'l':
		return &Expr{Kind: kLit, Lit: t.s}, nil
	case 'n':
		return &Expr{Kind: kRef, Name: t.s}, nil
	case 'r':
		// n*element; n*[ ... ] repeats the bracketed alternatives.
		if p.peek() == '[' {
			p.i++
			e, err := p.bracket()
			if err != nil {
				return nil, err
			}
			return &Expr{Kind: kRep, Min: t.n, Sub: []*Expr{e}}, nil
		}
		if p.peek() != 'l' && p.peek() != 'n' {
			return nil, fmt.Errorf("%q is not followed by an element", t.s)
		}
		e, err := p.item()
		if err != nil {
			return nil, err
		}
		return &Expr{Kind: kRep, Min: t.n, Sub: []*Expr{e}}, nil
	case '[':
		e, err := p.bracket()
		if err != nil {
			return nil, err
		}
		return &Expr{Kind: kOpt, Sub: []*Expr{e}}, nil
	}
	return nil, fmt.Errorf("unexpected %q", t.s)
}

// bracket reads alternatives up to the closing "]".
func (p *parser) bracket() (*Expr, error) {
	e, err := p.alt()
	if err != nil {
		return nil, err
	}
	if p.peek() != ']' {
		return nil, fmt.Errorf("missing \"]\"")
	}
	p.i++
	return e, nil
}
