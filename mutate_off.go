//go:build !urlkit_mutate

package urlkit

// mutation names a bug planted on purpose, to check that the test suites
// catch it (see mutate_on.go and .ci/mutate.sh). In an ordinary build it is
// the constant "", so every planted branch is compiled away.
const mutation = ""
