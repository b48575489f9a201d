package scheme

import (
	"net/url"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

const benchFTP = "ftp://myname:secret@ftp.host.dom:2121/pub/gnu/emacs/emacs-19.28.tar.gz;type=i"

// BenchmarkFTPPlan parses an ftp URL and builds its command sequence.
func BenchmarkFTPPlan(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFTP)))
	for b.Loop() {
		u, err := urlkit.Parse(benchFTP)
		if err != nil {
			b.Fatal(err)
		}
		v, err := ViewOf(u)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := v.Plan(Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFTPPlanNetURL does the same work with net/url: parse, split the
// path into segments, cut ";type=", unescape each segment and build the
// commands.
func BenchmarkFTPPlanNetURL(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFTP)))
	for b.Loop() {
		u, err := url.Parse(benchFTP)
		if err != nil {
			b.Fatal(err)
		}
		p := strings.TrimPrefix(u.EscapedPath(), "/")
		typ := ""
		if i := strings.LastIndex(p, ";type="); i >= 0 {
			typ, p = p[i+6:], p[:i]
		}
		segs := strings.Split(p, "/")
		pw, _ := u.User.Password()
		cmds := []string{"USER " + u.User.Username(), "PASS " + pw}
		for i, s := range segs {
			d, err := url.PathUnescape(s)
			if err != nil {
				b.Fatal(err)
			}
			if i < len(segs)-1 {
				cmds = append(cmds, "CWD "+d)
			} else {
				cmds = append(cmds, "TYPE "+strings.ToUpper(typ), "RETR "+d)
			}
		}
		_ = cmds
	}
}

const benchGopher = "gopher://gopher.host.dom/7/search/engine%09query%20words"

// BenchmarkGopherPlan parses a gopher URL and builds its request line.
func BenchmarkGopherPlan(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchGopher)))
	for b.Loop() {
		u, _ := urlkit.Parse(benchGopher)
		v, _ := ViewOf(u)
		if _, err := v.Plan(Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGopherPlanNetURL does the same with net/url.
func BenchmarkGopherPlanNetURL(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchGopher)))
	for b.Loop() {
		u, err := url.Parse(benchGopher)
		if err != nil {
			b.Fatal(err)
		}
		p := u.EscapedPath()[1:]
		sel, search, _ := strings.Cut(p[1:], "%09")
		s, _ := url.PathUnescape(sel)
		q, _ := url.PathUnescape(search)
		_ = s + "\t" + q + "\r\n"
	}
}

// BenchmarkCheck runs the security checks on an ftp URL.
func BenchmarkCheck(b *testing.B) {
	u := urlkit.MustParse(benchFTP)
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFTP)))
	for b.Loop() {
		Check(u)
	}
}
