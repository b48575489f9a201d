package gateway

import (
	"errors"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/lenient"
)

// goForm takes what a person typed into a URL box (url, and q from a
// search field) and answers with a redirect to the path form of the URL
// (303), or with an error page saying what is wrong and where.
//
// The input is read as people type it:
//   - a bare host, with or without a path, gets its scheme from its first
//     label as lynx guesses it (gopher.*, ftp.*, news.* and nntp.*, wais.*);
//     a host with another first label is an http address, which browsers
//     fetch themselves: the page says so;
//   - what is unsafe in a URL (spaces, non-ASCII, a lone "%") is repaired
//     by lenient.Parse, the project's one lenient reading, and the
//     redirect's page lists each repair; what it cannot repair is an error
//     page showing the input with the offending character marked.
//
// A search (q) is added as a gopher search (after %09, RFC 1738 3.4) or,
// for other schemes, after "?".
func (g *Gateway) goForm(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	input := v.Get("url")
	u, repairs, p := readInput(input)
	if p != nil {
		g.errorPage(w, r, *p)
		return
	}
	target := u.WithoutFragment().String()
	if q, ok := v["q"]; ok && len(q) > 0 {
		term := strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f {
				return ' '
			}
			return r
		}, q[0])
		switch u.Scheme() {
		case "gopher":
			target += "%09" + escape(term, "")
		case "wais":
			// RFC 1738 5: search = *[ uchar | ";" | ":" | "@" | "&" |
			// "=" ]; and a "+" would be read as a space (RFC 1630).
			target += "?" + escape(term, "/?+")
		default:
			target += "?" + escape(term, "")
		}
	}
	w.Header().Set("Location", "/"+target)
	g.errorPage(w, r, problem{Status: http.StatusSeeOther, Message: "see the URL's page: /" + stripUserinfo(target), Repairs: repairs})
}

// schemeGuesses maps a host's first label to the scheme lynx gives it
// when a URL is typed without one (lynx's LYUtils.c: LYConvertToURL).
var schemeGuesses = map[string]string{
	"gopher": "gopher", "ftp": "ftp", "news": "nntp", "nntp": "nntp", "wais": "wais",
}

// readInput reads typed input as goForm describes: the URL, the repairs
// made, or the problem to show.
func readInput(input string) (urlkit.URL, []string, *problem) {
	s := strings.TrimSpace(input)
	lead := strings.Index(input, s)
	if s == "" {
		return urlkit.URL{}, nil, &problem{Status: http.StatusBadRequest, Message: "enter a URL, such as gopher://gopher.floodgap.com/1/ or ftp.example.org"}
	}
	prefix := ""
	if !hasScheme(s) || isHostPort(s) {
		host := s
		if i := strings.IndexAny(host, "/:?#"); i >= 0 {
			host = host[:i]
		}
		label, _, dotted := strings.Cut(strings.ToLower(host), ".")
		sch, ok := schemeGuesses[label]
		if !ok || !dotted {
			user, pass := userinfoOf("x://" + s)
			return urlkit.URL{}, nil, &problem{Status: http.StatusBadRequest, Message: scrub(
				`"`+s+`" has no scheme, and its host's first label does not name one the gateway carries (gopher.*, ftp.*, news.* and nntp.* are guessed, as lynx does): `+
					`an address like this is a web (http) address, which your browser fetches itself. For gopher, ftp or news, type the scheme: gopher://`+s, user, pass)}
		}
		prefix = sch + "://"
	}
	u, warns, err := lenient.Parse(prefix + s)
	if err != nil {
		off := -1
		var se *urlkit.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset - len(prefix)
		}
		user, pass := userinfoOf(prefix + s)
		p := &problem{Status: http.StatusBadRequest, Message: scrub(err.Error(), user, pass)}
		if off >= 0 && off <= len(s) && user == "" && pass == "" {
			p.Input = markInput(input, lead+off)
		}
		return urlkit.URL{}, nil, p
	}
	if !u.IsAbsolute() {
		return urlkit.URL{}, nil, &problem{Status: http.StatusBadRequest, Message: "enter an absolute URL, such as gopher://host/1/"}
	}
	var repairs []string
	if prefix != "" {
		repairs = append(repairs, `added "`+prefix+`" (guessed from the host's first label, as lynx does)`)
	}
	for _, w := range warns {
		repairs = append(repairs, w.Reason)
	}
	return u, repairs, nil
}

// isHostPort reports whether s starts "host:port" rather than "scheme:":
// digits after the first ":" up to the end or a "/".
func isHostPort(s string) bool {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return false
	}
	rest := s[i+1:]
	j := strings.IndexByte(rest, '/')
	if j < 0 {
		j = len(rest)
	}
	return j > 0 && strings.Trim(rest[:j], "0123456789") == ""
}

// markInput splits input around the character at byte offset off (the
// end of the input when off is its length: the place something is missing).
func markInput(input string, off int) []inputPart {
	if off >= len(input) {
		return []inputPart{{Text: input}, {Text: " ", Bad: true}}
	}
	_, size := utf8.DecodeRuneInString(input[off:])
	parts := []inputPart{{Text: input[:off]}, {Text: input[off : off+size], Bad: true}, {Text: input[off+size:]}}
	out := parts[:0]
	for _, p := range parts {
		if p.Text != "" || p.Bad {
			out = append(out, p)
		}
	}
	return out
}
