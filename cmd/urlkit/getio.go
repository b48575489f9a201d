package main

// The command-line side of get: its messages, and the copy of a resource
// to its destination (a reader closing the pipe, as head does, ends get
// quietly).

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
)

// getMessage is one line for standard error: "urlkit get: [line N: ]URL: MSG".
func getMessage(in *input, url, msg string) []byte {
	b := append([]byte(nil), "urlkit get: "...)
	b = in.where(b)
	if len(url) > quoteWindow || strings.ContainsFunc(url, func(r rune) bool { return r <= ' ' || r == 0x7f || r == utf8.RuneError }) {
		// Long, or holding a space or a control byte (an argument is
		// taken as given, "' ftp://h/'" included): quoted.
		b = appendQuoted(b, url, -1)
		b = append(b, ": "...)
	} else if url != "" {
		b = append(b, url...)
		b = append(b, ": "...)
	}
	b = append(b, msg...)
	return append(b, '\n')
}

// outError marks a failure to write the output, as opposed to reading the
// resource.
type outError struct{ err error }

func (e *outError) Error() string { return "writing the output: " + plainError(e.err) }
func (e *outError) Unwrap() error { return e.err }

type outWriter struct{ w io.Writer }

func (o outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		err = &outError{err}
	}
	return n, err
}

// quietPipe makes a write to a closed standard output fail with EPIPE
// instead of killing the process, so that get can clear its progress meter
// and end quietly when a reader such as head has all it wanted.
func quietPipe() {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
}

// quietEnd reports whether err is a closed pipe on the output: the reader
// has all it wanted, and get ends without a message.
func quietEnd(err error) bool {
	var oe *outError
	return errors.As(err, &oe) && errors.Is(err, syscall.EPIPE)
}

// binaryCheckBytes is how far into a resource written to a terminal get
// looks for binary data: curl's rule (tool_cb_wrt.c), a NUL byte in a
// write while fewer than 2000 bytes have gone out.
const binaryCheckBytes = 2000

// terminalGuard refuses binary data on a terminal unless it was asked for
// (-o -): while fewer than binaryCheckBytes bytes have been written, a
// write that holds a NUL byte is refused whole, as curl refuses it.
type terminalGuard struct {
	w io.Writer
	n int64
}

func (g *terminalGuard) Write(p []byte) (int, error) {
	if g.n < binaryCheckBytes && bytes.IndexByte(p, 0) >= 0 {
		return 0, &binaryError{written: g.n}
	}
	n, err := g.w.Write(p)
	g.n += int64(n)
	return n, err
}

// binaryError is the refusal to write binary data to a terminal.
type binaryError struct{ written int64 }

func (e *binaryError) Error() string {
	what := "nothing of it was written"
	if e.written > 0 {
		what = "only its first " + strconv.FormatInt(e.written, 10) + " bytes were written"
	}
	return "the resource is binary data (a NUL byte within its first " + strconv.Itoa(binaryCheckBytes) +
		" bytes), which can disturb a terminal; " + what + ". Use -o - to write it to the terminal anyway, or -o FILE to save it"
}
