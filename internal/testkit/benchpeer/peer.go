// Package benchpeer holds the hand-written net/url programs that urlkit's
// benchmarks and the bench/cmd/compare harness measure urlkit against: the
// work a Go programmer would write with the standard library to get what a
// urlkit call returns. They live in one place so that every benchmark
// compares against the same peer.
package benchpeer

import (
	"net/url"
	"strings"
)

// Canonical parses s with net/url and writes it back: the closest net/url
// work to urlkit's Parse followed by Canonical.
func Canonical(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// FTPCommands parses an ftp URL with net/url, splits the path into
// segments, cuts ";type=", unescapes each segment and builds the FTP
// command sequence of RFC 1738 3.2.2 (the work of urlkit's FTP plan).
func FTPCommands(s string) ([]string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	p := strings.TrimPrefix(u.EscapedPath(), "/")
	typ := ""
	if i := strings.LastIndex(p, ";type="); i >= 0 {
		typ, p = p[i+6:], p[:i]
	}
	segs := strings.Split(p, "/")
	cmds := make([]string, 0, len(segs)+3)
	if u.User == nil {
		cmds = append(cmds, "USER anonymous", "PASS anonymous@localhost")
	} else {
		pw, _ := u.User.Password()
		cmds = append(cmds, "USER "+u.User.Username(), "PASS "+pw)
	}
	for i, seg := range segs {
		d, err := url.PathUnescape(seg)
		if err != nil {
			return nil, err
		}
		if i < len(segs)-1 {
			cmds = append(cmds, "CWD "+d)
		} else if typ != "" {
			cmds = append(cmds, "TYPE "+strings.ToUpper(typ), "RETR "+d)
		} else {
			cmds = append(cmds, "RETR "+d)
		}
	}
	return cmds, nil
}

// GopherRequest parses a gopher URL with net/url and builds the request
// line of RFC 1738 3.4: the selector, and for a search a tab and the
// search string, all unescaped, then CR LF (the work of urlkit's gopher
// plan).
func GopherRequest(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	p := u.EscapedPath()
	if len(p) < 2 {
		return "\r\n", nil
	}
	sel, search, isSearch := strings.Cut(p[2:], "%09")
	d, err := url.PathUnescape(sel)
	if err != nil {
		return "", err
	}
	if !isSearch {
		return d + "\r\n", nil
	}
	q, err := url.PathUnescape(search)
	if err != nil {
		return "", err
	}
	return d + "\t" + q + "\r\n", nil
}
