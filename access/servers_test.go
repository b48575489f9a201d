package access

import (
	"github.com/urlkit/urlkit/internal/testservers"
	"os"
	"testing"
)

// realServer returns the variables for one daemon of .ci/servers.sh after
// checking that it answers (see testservers.Require).
func realServer(t *testing.T, addrVar string) map[string]string {
	t.Helper()
	return testservers.Require(t, addrVar)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
