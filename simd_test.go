package urlkit

import (
	"math/rand"
	"strings"
	"testing"
	"unsafe"
)

// TestNibbleTables checks that each class of the 32-byte scans holds
// exactly the bytes of its ptab class.
func TestNibbleTables(t *testing.T) {
	for _, tc := range []struct {
		name  string
		t     *nibbleTable
		class uint8
	}{{"path", &pathTable, cPath}, {"x", &xTable, cX}, {"host", &hostTable, cLabel | cDot}} {
		for b := 0; b < 256; b++ {
			in := b < 0x80 && tc.t.lo[b&15]&tc.t.hi[b>>4] != 0 && tc.t.lo[16+b&15] == tc.t.lo[b&15] && tc.t.hi[16+b>>4] == tc.t.hi[b>>4]
			if want := ptab[b]&tc.class != 0; in != want {
				t.Errorf("%s table: byte %#x in = %v, want %v", tc.name, b, in, want)
			}
		}
	}
}

// TestScans compares the 32- and 64-byte scans with ptab on random blocks
// of bytes drawn mostly from the edges of the classes.
func TestScans(t *testing.T) {
	if !simdAvailable {
		t.Skip("no 32-byte scans on this machine")
	}
	const pick = "aZ09.-_~%/?#:@[]\\ \x00\x7f\x80\xff;=&+$,!*'()\"<>^`{|}"
	r := rand.New(rand.NewSource(1))
	buf := make([]byte, 80)
	for n := 0; n < 20000; n++ {
		for k := range buf {
			if r.Intn(4) == 0 {
				buf[k] = byte(r.Intn(256))
			} else {
				buf[k] = pick[r.Intn(len(pick))]
			}
		}
		s := string(buf)
		i := r.Intn(len(s) - 63)
		for _, tc := range []struct {
			t     *nibbleTable
			class uint8
		}{{&pathTable, cPath}, {&xTable, cX}} {
			var want uint32
			for k := 0; k < 32; k++ {
				if ptab[s[i+k]]&tc.class == 0 {
					want |= 1 << k
				}
			}
			if got := outside32(s, i, tc.t); got != want {
				t.Fatalf("outside32(%q, %d) = %032b, want %032b", s, i, got, want)
			}
		}
		var host, dots, hyphens, path uint64
		for k := 0; k < 64; k++ {
			c := s[i+k]
			if ptab[c]&(cLabel|cDot) == 0 {
				host |= 1 << k
			}
			if c == '.' {
				dots |= 1 << k
			}
			if c == '-' {
				hyphens |= 1 << k
			}
			if ptab[c]&cPath == 0 {
				path |= 1 << k
			}
		}
		if h, d, y, p, ok := classify64(s, i, &hostTable, &pathTable); !ok || h != host || d != dots || y != hyphens || p != path {
			t.Fatalf("classify64(%q, %d) = %b %b %b %b %v, want %b %b %b %b", s, i, h, d, y, p, ok, host, dots, hyphens, path)
		}
	}
}

// TestFastPathEdges compares the parsers, with and without the 32-byte
// scans, on URLs of 20 to 80 bytes with each byte in turn replaced by
// bytes at the edges of the classes: the host's and the path's ends fall
// on every position of a 32-byte block and of the window at the end.
func TestFastPathEdges(t *testing.T) {
	bases := []string{
		"http://www.example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u",
		"https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.com/x?y#z",
		"ftp://u:p@ftp.host.dom:2121/pub/gnu/emacs/emacs-19.28.tar.gz;type=i",
		"https://abcdefghijklmnopqrstuvwxyz0123456789-abcdefghij.example/",
		"http://h.dom/%41%42%43%44%45%46%47%48%49%4a%4b%4c%4d%4e%4f%50?q=%7e#f%20",
		"file:///usr/local/share/doc/urlkit/README.txt",
	}
	const edge = ".-_~%/?#:@ A1z\x80\x00"
	n := 0
	for _, base := range bases {
		for l := 20; l <= len(base); l++ {
			s := base[:l]
			compareParsers(t, s)
			for k := 0; k < l; k++ {
				for _, c := range []byte(edge) {
					compareParsers(t, s[:k]+string(c)+s[k+1:])
					n++
				}
			}
		}
	}
	// Long hosts: the scalar scan takes over at 32 bytes of host bytes.
	for l := 25; l < 40; l++ {
		compareParsers(t, "http://"+strings.Repeat("a", l-4)+".com/x")
		compareParsers(t, "http://"+strings.Repeat("a", l)+"/"+strings.Repeat("b", 40))
		compareParsers(t, "http://"+strings.Repeat("ab.", l/3)+"9/"+strings.Repeat("b", 40))
	}
	t.Logf("%d variants compared", n)
}

// TestFastPathPageEnd places URLs so that they end at each of the last
// 80 bytes of a page, with other bytes after them in the page: the 64-byte
// classification reads past the end of a string only within its last
// page and must ignore what it finds there, and leaves an input whose
// read would cross the page to the other scans.
func TestFastPathPageEnd(t *testing.T) {
	const page = 4096
	buf := make([]byte, 3*page)
	for k := range buf {
		buf[k] = "a.-/%~"[k%6]
	}
	start := page - int(uintptr(unsafe.Pointer(&buf[0]))%page) // the offset of a page boundary in buf
	urls := []string{
		"http://www.example.com/a/b",
		"https://www.sec.gov/edgar.shtml",
		"ftp://ftp.host.dom:2121/pub/gnu/emacs/emacs-19.28.tar.gz;type=i",
		"http://h.dom/%41%42?q#f",
		"https://a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.com/x",
		"http://a-.b/", "http://host.9x/", "file:///etc/motd", "http://x.y/~user/",
	}
	for _, u := range urls {
		for gap := 0; gap < 80; gap++ {
			end := start + page - gap
			copy(buf[end-len(u):], u)
			compareParsers(t, unsafe.String(&buf[end-len(u)], len(u)))
		}
	}
}
