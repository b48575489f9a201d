package access

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

// referenceDots is RFC 1436 / RFC 977 text framing on a whole text in
// memory: lines are split at "\n"; a line that is "." (before its CR LF or
// LF) ends the text; a line starting with ".." loses its first dot.
func referenceDots(in []byte) []byte {
	var out bytes.Buffer
	for len(in) > 0 {
		i := bytes.IndexByte(in, '\n')
		line := in
		if i >= 0 {
			line = in[:i+1]
		}
		in = in[len(line):]
		if i >= 0 && (string(line) == ".\n" || string(line) == ".\r\n") {
			break
		}
		if bytes.HasPrefix(line, []byte("..")) {
			line = line[1:]
		}
		out.Write(line)
	}
	return out.Bytes()
}

// FuzzDotReader: the streaming dotReader, with a small buffer so that long
// lines span many pieces, reading through a reader that returns one byte
// at a time, equals the in-memory reference.
func FuzzDotReader(f *testing.F) {
	for _, s := range []string{"a\r\n..b\r\n.\r\nz", strings.Repeat("x", 15) + ".\r\n.\r\n", strings.Repeat("y", 16) + "..\n.\n", ".\n", "..", "a\n.b\n..c"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		d := &dotReader{r: bufio.NewReaderSize(oneByte{bytes.NewReader(in)}, 16), start: true}
		got, err := io.ReadAll(d)
		if err != nil {
			t.Fatal(err)
		}
		if want := referenceDots(in); !bytes.Equal(got, want) {
			t.Fatalf("dotReader(%q) = %q, want %q", in, got, want)
		}
	})
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	return o.r.Read(p)
}
