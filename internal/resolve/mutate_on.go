//go:build urlkit_mutate

package resolve

import "os"

// mutation names the bug planted in this build, from URLKIT_MUTATION (the
// core package reads the same variable and lists every name). The
// resolution modes' bugs:
//
//	rfc3986-empty-authority  RFC3986 reads "//" with an empty authority as no authority
//	rfc3986-keep-dots        RFC3986 keeps dot segments in a reference with a scheme
var mutation = os.Getenv("URLKIT_MUTATION")
