package urlkit

// The fast path's vector scans. On amd64 with AVX2 (simd_amd64.s), one
// call classifies the 64 bytes after "//": which are not host bytes, which
// are "." and "-", and which are not path bytes, as bit masks; the host's
// labels are then checked with a few operations on the masks, and the
// path of most URLs is found in the same masks. Longer paths, search
// parts and fragments are scanned 32 bytes per call. Elsewhere, and for
// inputs the vector code does not take, the scalar code of parse.go does
// the same checks; the tests compare both paths on every input they try.

import (
	"math/bits"

	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// A nibbleTable is a class of ASCII bytes in the form of the vector
// scans: a byte b is in the class when lo[b&15] and hi[b>>4] share a bit. Bit r of lo[n] says that the byte r<<4|n is in the class,
// and hi[r] is 1<<r for r < 8 and 0 above, so that no byte of 0x80 or more
// is in any class. Each half is repeated for the two 16-byte lanes.
type nibbleTable struct{ lo, hi [32]byte }

func newNibbleTable(class uint8) (t nibbleTable) {
	for b := 0; b < 256; b++ {
		if ptab[b]&class == 0 {
			continue
		}
		if b >= 0x80 {
			panic("urlkit: a class of the 32-byte scans holds a byte of 0x80 or more")
		}
		t.lo[b&15] |= 1 << (b >> 4)
	}
	for r := 0; r < 8; r++ {
		t.hi[r] = 1 << r
	}
	copy(t.lo[16:], t.lo[:16])
	copy(t.hi[16:], t.hi[:16])
	return t
}

// simd says whether the fast path uses the vector scans: where they can
// run, unless a test turns them off to compare both paths.
var simd = simdAvailable

// The classes of the vector scans.
var (
	pathTable = newNibbleTable(cPath)
	xTable    = newNibbleTable(cX)
	hostTable = newNibbleTable(cLabel | cDot)
)

// skip32 is skip for an input of at least 32 bytes, 32 bytes per step;
// class is cPath or cX.
func skip32(s string, i int, class uint8) int {
	t := &xTable
	if class == cPath {
		t = &pathTable
	}
	for {
		var out uint32
		if n := len(s) - i; n >= 32 {
			if out = outside32(s, i, t); out == 0 {
				i += 32
				continue
			}
		} else if n > 0 {
			// The last 32 bytes of s, shifted so that those before i drop
			// out; the bits shifted in stand for the end.
			out = outside32(s, len(s)-32, t)>>(32-n) | ^uint32(0)<<n
		} else {
			return i
		}
		i += bits.TrailingZeros32(out)
		if chars.IsEscape(s, i) {
			i += 3
			continue
		}
		return i
	}
}

// hostLong is the host end of fastHost64 that leaves the host to
// fastHostPort.
const hostLong = -2

// fastHost64 reads the host and port from h as fastHostPort does, from one
// classification of the 64 bytes from h, and when the host is followed by
// "/", the path up to its first byte outside cPath: pathEnd is that
// byte's offset (an escape's "%", "?", "#", another byte or the end), or
// -1 when the caller must scan the path itself. A host end of -2
// (hostLong) says that fastHostPort must decide.
func fastHost64(s string, h int, syntax schemes.Syntax) (hostEnd, end int, port bool, pathEnd int) {
	out, dots, hyphens, pathOut, ok := classify64(s, h, &hostTable, &pathTable)
	if !ok {
		return hostLong, 0, false, -1
	}
	n := len(s) - h
	if n < 64 {
		in := uint64(1)<<n - 1
		out |= ^in
		pathOut |= ^in
		dots &= in
		hyphens &= in
	}
	e := bits.TrailingZeros64(out) // the length of the host
	switch {
	case e == 64:
		return hostLong, 0, false, -1
	case e == 0:
		if end, empty := emptyHost(s, h, syntax); empty {
			return h, end, false, -1
		}
		return h, -1, false, -1
	}
	in := uint64(1)<<e - 1
	dots &= in
	special := dots | hyphens&in
	// A "." next to a "." or a "-", or a "." or "-" first or last.
	if dots&(special<<1)|special&(dots<<1) != 0 || special&1 != 0 || special>>(e-1) != 0 {
		return h, -1, false, -1
	}
	top := h // the top label's first byte
	if dots != 0 {
		top = h + 64 - bits.LeadingZeros64(dots)
	}
	if ptab[s[top]]&cLetter == 0 {
		return h, -1, false, -1
	}
	hostEnd = h + e
	if hostEnd == len(s) || s[hostEnd] != '/' {
		end, port = fastPort(s, hostEnd)
		return hostEnd, end, port, -1
	}
	// The path: its bytes from hostEnd within the 64 classified.
	if p := pathOut >> e; p != 0 {
		return hostEnd, hostEnd, false, hostEnd + bits.TrailingZeros64(p)
	}
	return hostEnd, hostEnd, false, -1
}
