package access

import (
	"context"
	"github.com/urlkit/urlkit/internal/testkit/testio"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// The words a person reads for the runtime's errors (issue 22: the gateway's
// error pages and the command line say the same): a refused connection, a
// host not found, a timeout, each after the protocol step that failed.
func TestPlainError(t *testing.T) {
	addr := testio.ClosedAddr(t)
	p := planFor(t, "gopher://"+addr+"/0x", scheme.Config{})
	_, err := Execute(context.Background(), p, &Options{ConnectTimeout: 2 * time.Second})
	if err == nil {
		t.Fatal("no error")
	}
	got := PlainError(err)
	if !strings.Contains(got, "connecting to "+addr+": connection refused (no server listens on that port)") || strings.Contains(got, "dial tcp") {
		t.Errorf("refused: %q (raw %q)", got, err.Error())
	}
	_, err = Execute(context.Background(), planFor(t, "gopher://no-such-host.invalid/0x", scheme.Config{}), nil)
	if got := PlainError(err); err == nil || !strings.Contains(got, `host name "no-such-host.invalid" not found`) {
		t.Errorf("not found: %q (raw %v)", got, err)
	}
}
