//go:build amd64 && !purego

package urlkit

// On amd64 with AVX2, the fast path classifies 32 bytes per instruction
// sequence (simd_amd64.s): a byte is in a class when the entries of its
// low and high nibbles in a pair of 16-byte tables share a bit. The
// tables are built from ptab, so the classes are those of the scalar
// code, which remains for other machines and for the inputs the vector
// code does not take (simd.go).

func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv0() (lo uint32)

// outside32 returns a mask with bit k set when s[i+k] is not in class t,
// for k < 32; s must have at least i+32 bytes.
//
//go:noescape
func outside32(s string, i int, t *nibbleTable) uint32

// hasAVX2 reports whether the processor has AVX2 and the operating system
// saves the YMM registers.
func hasAVX2() bool {
	max, _, _, _ := cpuid(0, 0)
	if max < 7 {
		return false
	}
	_, _, c, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c&osxsave == 0 || c&avx == 0 || xgetbv0()&6 != 6 {
		return false
	}
	_, b, _, _ := cpuid(7, 0)
	return b&(1<<5) != 0
}

// simdAvailable says whether the vector scans can run here.
var simdAvailable = hasAVX2()

// classify64 returns, for the 64 bytes from s[i], the masks of the bytes
// outside the classes host and path and of the bytes "." and "-"; bits
// past the end of s are to be ignored. It returns ok false, doing
// nothing, when fewer than 64 bytes are left and reading 64 would cross
// into the next page.
//
//go:noescape
func classify64(s string, i int, host, path *nibbleTable) (hostOut, dots, hyphens, pathOut uint64, ok bool)
