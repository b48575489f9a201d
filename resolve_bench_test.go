package urlkit

import (
	"fmt"
	"github.com/urlkit/urlkit/internal/resolve"
	"net/url"
	"strings"
	"testing"
	"time"
)

// benchRefs are the references of RFC 3986 section 5.4.1, resolved against
// its base http://a/b/c/d;p?q.
var benchRefs = []string{
	"g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x", "g;x", "g;x?y#s",
	".", "./", "..", "../", "../g", "../..", "../../", "../../g",
}

const benchBase = "http://a/b/c/d;p?q"

func benchBytes() int64 {
	n := 0
	for _, r := range benchRefs {
		n += len(r) + len(benchBase)
	}
	return int64(n)
}

// BenchmarkResolve resolves the RFC 3986 5.4.1 references against their
// base, already parsed, giving each result's text: urlkit's modes beside
// net/url's ResolveReference in the same run. allocs/op is for all 21
// references together.
func BenchmarkResolve(b *testing.B) {
	base := MustParse(benchBase)
	refs := make([]URL, len(benchRefs))
	for i, r := range benchRefs {
		refs[i], _ = ParseRef(r)
	}
	for _, m := range Modes() {
		b.Run("urlkit/"+m.String(), func(b *testing.B) {
			b.SetBytes(benchBytes())
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				for _, r := range refs {
					u, _ := Resolve(base, r, m)
					n += len(u.String())
				}
			}
			_ = n
		})
	}
	b.Run("net-url/ResolveReference", func(b *testing.B) {
		nb, _ := url.Parse(benchBase)
		nrefs := make([]*url.URL, len(benchRefs))
		for i, r := range benchRefs {
			nrefs[i], _ = url.Parse(r)
		}
		b.SetBytes(benchBytes())
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			for _, r := range nrefs {
				n += len(nb.ResolveReference(r).String())
			}
		}
		_ = n
	})
}

// BenchmarkResolveString includes parsing both strings, as a caller holding
// text does: urlkit.ResolveString beside url.Parse + ResolveReference.
func BenchmarkResolveString(b *testing.B) {
	b.Run("urlkit/rfc3986", func(b *testing.B) {
		b.SetBytes(benchBytes())
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range benchRefs {
				_, _ = ResolveString(benchBase, r, ModeRFC3986)
			}
		}
	})
	b.Run("net-url/Parse+ResolveReference", func(b *testing.B) {
		b.SetBytes(benchBytes())
		b.ReportAllocs()
		for b.Loop() {
			for _, r := range benchRefs {
				nb, _ := url.Parse(benchBase)
				nr, _ := url.Parse(r)
				_ = nb.ResolveReference(nr).String()
			}
		}
	})
}

// BenchmarkRelative generates the shortest relative form of each result.
func BenchmarkRelative(b *testing.B) {
	base := MustParse(benchBase)
	var targets []URL
	for _, r := range benchRefs {
		ref, _ := ParseRef(r)
		u, _ := Resolve(base, ref, ModeRFC3986)
		targets = append(targets, u)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range targets {
			_, _ = Relative(base, t, ModeRFC3986)
		}
	}
}

// linearSizes are the input sizes of BenchmarkLinear: 1 KB to 4 MB.
var linearSizes = []int{1 << 10, 16 << 10, 256 << 10, 1 << 20, 4 << 20}

// linearInputs builds the inputs of issue 10's quadratic cases at size n:
// a target http://a/a/a/... for Relative against http://a/, and a path of
// "a/../" repeated for every mode's dot removal (each removal used to move
// the rest of the path in ModeRFC1630).
func linearInputs(n int) (target URL, dots string) {
	target = MustParse("http://a/" + strings.Repeat("a/", n/2)[:n-9])
	dots = strings.Repeat("a/../", n/5+1)[:n]
	return target, dots
}

// BenchmarkLinear shows time per byte flat from 1 KB to 4 MB for Relative
// and for every mode's dot-segment removal (issue 10). The ns/byte column
// is the figure to compare across sizes:
//
//	go test -run '^$' -bench 'BenchmarkLinear' -benchtime 5x .
func BenchmarkLinear(b *testing.B) {
	base := MustParse("http://a/")
	for _, n := range linearSizes {
		target, dots := linearInputs(n)
		name := fmt.Sprintf("%dKB", n>>10)
		b.Run("relative/"+name, func(b *testing.B) {
			b.SetBytes(int64(n))
			cpu := cpuTime()
			for b.Loop() {
				if _, err := Relative(base, target, ModeRFC1630); err != nil {
					b.Fatal(err)
				}
			}
			reportPerByte(b, n, cpu)
		})
		if n <= 256<<10 {
			// The quadratic rescanning rule this replaced, for contrast.
			b.Run("dots-rfc1630-rescan/"+name, func(b *testing.B) { benchDots(b, dots, removeDots1630Rescan) })
		}
		for _, m := range Modes() {
			// The mode's in-place removal, as RemoveDotSegments and
			// Resolve run it, on a buffer refilled each time (so that the
			// figure is the algorithm's, not the allocator's).
			remove := func(p []byte) int { return resolve.Dots(p, resolve.Mode(m)) }
			b.Run("dots-"+m.String()+"/"+name, func(b *testing.B) { benchDots(b, dots, remove) })
		}
	}
}

// benchDots runs an in-place dot removal on dots, copied into one buffer
// before each call, and reports the time per byte.
func benchDots(b *testing.B, dots string, remove func([]byte) int) {
	n := len(dots)
	b.SetBytes(int64(n))
	buf := make([]byte, n)
	cpu := cpuTime()
	for b.Loop() {
		copy(buf, dots)
		_ = remove(buf)
	}
	reportPerByte(b, n, cpu)
}

// reportPerByte reports wall time and process CPU time (user + system,
// which other processes on a shared machine do not inflate) per input
// byte, since the CPU time reading cpu0.
func reportPerByte(b *testing.B, n int, cpu0 time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/byte")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/byte")
}
