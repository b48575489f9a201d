//go:build !amd64 || purego

package urlkit

// Without AVX2 code for this architecture, the fast path is scalar only.

var simdAvailable = false

func outside32(s string, i int, t *nibbleTable) uint32 { panic("urlkit: no 32-byte scan here") }

func classify64(s string, i int, host, path *nibbleTable) (hostOut, dots, hyphens, pathOut uint64, ok bool) {
	return 0, 0, 0, 0, false
}
