package scheme

import (
	"testing"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/testkit/benchpeer"
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
// commands (internal/testkit/benchpeer, shared with bench/cmd/compare).
func BenchmarkFTPPlanNetURL(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFTP)))
	for b.Loop() {
		if _, err := benchpeer.FTPCommands(benchFTP); err != nil {
			b.Fatal(err)
		}
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
		if _, err := benchpeer.GopherRequest(benchGopher); err != nil {
			b.Fatal(err)
		}
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
