//go:build urlkit_mutate

package scheme

import "os"

// mutation names the bug planted in this build, from URLKIT_MUTATION (the
// core package reads the same variable). The scheme layer's bugs:
//
//	ftp-skip-empty-cwd  the ftp plan leaves out the CWD of an empty segment
var mutation = os.Getenv("URLKIT_MUTATION")
