package scheme

import (
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// NNTP (RFC 1738 3.7; RFC 1630, NNTP): nntp://<host>:<port>/<newsgroup-name>/<article-number>

func init() { registerBuiltin("nntp", func(u urlkit.URL) (View, error) { return NNTPOf(u) }) }

// NNTP is the view of an nntp URL.
type NNTP struct {
	u       urlkit.URL
	Host    string
	Port    int // 119 when the URL names none
	Group   string
	Article string // decimal article number; "" when absent
}

// NNTPOf checks u against RFC 1738's nntpurl = "nntp://" hostport "/"
// group [ "/" digits ]: no login, a group name, an optional article number.
func NNTPOf(u urlkit.URL) (*NNTP, error) {
	l := locOf(u)
	if err := noLogin(l, `RFC 1738 5: nntpurl = "nntp://" hostport "/" group [ "/" digits ]`); err != nil {
		return nil, err
	}
	if err := noSearch(l, "RFC 1738 3.7"); err != nil {
		return nil, err
	}
	v := &NNTP{u: u, Host: u.Host()}
	v.Port, _ = portOf(u, 119)
	path, ok := u.Path()
	if !ok {
		return nil, l.err(l.end(), urlkit.ComponentPath, ErrMissing, "an nntp URL names a newsgroup: nntp://<host>:<port>/<newsgroup-name>/<article-number> (RFC 1738 3.7)")
	}
	segs := part{path, l.urlPath(), urlkit.ComponentPath}.split('/')
	if err := checkGroup(l, segs[0], `RFC 1738 5: group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`); err != nil {
		return nil, err
	}
	v.Group = segs[0].raw
	if len(segs) > 2 {
		return nil, l.err(segs[2].off-1, urlkit.ComponentPath, ErrBadPath, `an nntp URL has at most two path segments: <newsgroup-name>/<article-number> (RFC 1738 3.7)`)
	}
	if len(segs) == 2 {
		a := segs[1]
		if a.raw == "" {
			return nil, l.err(a.off, a.comp, ErrBadArticle, `empty article number after "/" (RFC 1738 5: digits = 1*digit)`)
		}
		for i := 0; i < len(a.raw); i++ {
			if !chars.Is(a.raw[i], chars.Digit) {
				return nil, l.err(a.off+i, a.comp, ErrBadArticle, "%q in article number: it is decimal digits (RFC 1738 5)", a.raw[i:i+1])
			}
		}
		v.Article = a.raw
	}
	return v, nil
}

// URL returns the URL the view was made from.
func (v *NNTP) URL() urlkit.URL { return v.u }

// Plan returns MODE READER, GROUP and, with an article number, ARTICLE n
// (RFC 977), or without one the group's overview, then QUIT.
func (v *NNTP) Plan(Config) (Plan, error) {
	if err := planPort(v.u); err != nil {
		return nil, err
	}
	p := &NNTPPlan{scheme: "nntp", Addr: addrOf(v.u, v.Host, v.Port), Group: v.Group, Article: v.Article}
	if v.Article != "" {
		p.Commands = []NNTPCommand{{Verb: NNTPModeReader}, {Verb: NNTPGroup, Arg: v.Group}, {Verb: NNTPArticle, Arg: v.Article}, {Verb: NNTPQuit}}
	} else {
		p.Commands = []NNTPCommand{{Verb: NNTPModeReader}, {Verb: NNTPGroup, Arg: v.Group}, overAll, {Verb: NNTPQuit}}
	}
	return p, nil
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *NNTP) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("host", v.Host)
	w.KNum("port", v.Port)
	w.KStr("group", v.Group)
	w.KNonEmpty("article", v.Article)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *NNTP) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// fileName is the article number (RFC 1738 3.7).
func (v *NNTP) fileName() (string, error) {
	if v.Article == "" {
		return "", fmt.Errorf("an nntp URL without an article number: %w", ErrNoFileName)
	}
	return v.Article, nil
}
