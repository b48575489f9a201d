//go:build !urlkit_mutate

package resolve

// mutation names a bug planted on purpose (see mutate_on.go and
// .ci/mutate.sh); in an ordinary build it is "" and every planted branch is
// compiled away.
const mutation = ""
