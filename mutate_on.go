//go:build urlkit_mutate

package urlkit

import "os"

// mutation names the bug planted in this build, read from URLKIT_MUTATION
// (empty: none). Only builds with the urlkit_mutate tag have it: .ci/mutate.sh
// plants each bug in turn and requires the suites to fail. The names:
//
//	rfc3986-empty-authority  ModeRFC3986 reads "//" with an empty authority as no authority
//	rfc3986-keep-dots        ModeRFC3986 keeps dot segments in a reference with a scheme
//	host-underscore          the parser accepts "_" in a host name
//	port-letters             the parser accepts letters in a port
//	vector-host-pairs        the vector scan (simd.go) accepts ".." and ".-" in a host
var mutation = os.Getenv("URLKIT_MUTATION")

func init() {
	switch mutation {
	case "", "rfc3986-empty-authority", "rfc3986-keep-dots", "host-underscore", "port-letters", "vector-host-pairs",
		"ftp-skip-empty-cwd": // planted in the scheme package
	default:
		panic("urlkit: unknown URLKIT_MUTATION " + mutation)
	}
}
