package hostile

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"net"
	"strconv"
	"time"
)

// WAIS servers that misbehave (the message format: a 25-byte ASCII header
// whose first 10 digits give the body's length, then the body; RFC 1625
// and ../shared/servers/wais/transcripts). Each reads the client's
// messages properly and misbehaves in its answers.

// ReadWAISMessage reads one message from c: the header and the body it
// announces (at most 1 MiB).
func ReadWAISMessage(c net.Conn) ([]byte, error) {
	h := make([]byte, 25)
	if _, err := io.ReadFull(c, h); err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(string(h[:10]))
	if err != nil || n > 1<<20 {
		return nil, fmt.Errorf("bad WAIS header %q", h)
	}
	body := make([]byte, n)
	_, err = io.ReadFull(c, body)
	return body, err
}

// WAISMessage returns a header and body.
func WAISMessage(body []byte) []byte {
	return append(fmt.Appendf(nil, "%010dz2wais        0", len(body)), body...)
}

// WAISInitResponse is the initResponseAPDU freeWAIS-sf sends (message 2 of
// the demo-search-retrieve transcript, shortened): accept, sizes 100000.
var WAISInitResponse = []byte("\x00\x12\x15\x01\x03\x01\x80\x04\x01\x80\x05\x03\x01\x86\xa0\x06\x03\x01\x86\xa0")

// WAISScript answers the init with WAISInitResponse, then each further
// message with answer(n, body) (n counts from 1 for the first message
// after the init); a nil answer ends the connection.
func WAISScript(answer func(n int, body []byte) []byte) func(net.Conn) {
	return func(c net.Conn) {
		if _, err := ReadWAISMessage(c); err != nil {
			return
		}
		if _, err := c.Write(WAISMessage(WAISInitResponse)); err != nil {
			return
		}
		for n := 1; ; n++ {
			body, err := ReadWAISMessage(c)
			if err != nil {
				return
			}
			out := answer(n, body)
			if out == nil {
				return
			}
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	}
}

// WAISHugeHeader answers the init with a header announcing 9,999,999,999
// bytes, then sends bytes without end.
func WAISHugeHeader(c net.Conn) {
	if _, err := ReadWAISMessage(c); err != nil {
		return
	}
	endless(c, "9999999999z2wais        0", bytes.Repeat([]byte{0x63}, 32<<10), 0)
}

// WAISShortBody answers the init with a header announcing 1000 bytes,
// sends 10, and closes the connection.
func WAISShortBody(c net.Conn) {
	if _, err := ReadWAISMessage(c); err != nil {
		return
	}
	c.Write([]byte("0000001000z2wais        0\x00\x0f\x15\x01\x03\x01\x80\x04\x01\x80"))
}

// WAISLyingElement answers the search with a well-framed message whose
// user information announces an element of 0x0fffffff bytes.
func WAISLyingElement() func(net.Conn) {
	return WAISScript(func(int, []byte) []byte {
		body := []byte("\x00\x0e\x17\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x1b\x01\x00")
		body = append(body, 0x63, 0x06, 0x81, 0x16, 0xff, 0xff, 0xff, 0x7f)
		return WAISMessage(body)
	})
}

// WAISGarbage answers the search with a message of the right length
// holding garbage, different on each connection (seeded by seed): on odd
// seeds random bytes; on even ones a well-formed searchResponse whose user
// information (tag 99, its length right) holds random elements: random
// tags, lengths that lie, groups inside groups.
func WAISGarbage(seed int64) func(net.Conn) {
	var n int64
	return WAISScript(func(int, []byte) []byte {
		n++
		r := rand.New(rand.NewSource(seed + n))
		if (seed+n)%2 == 1 {
			body := make([]byte, 200+r.Intn(2000))
			r.Read(body)
			return WAISMessage(body)
		}
		var u []byte
		for len(u) < 100+r.Intn(1000) {
			tag := []int{1, 28, 99, 116, 118, 120, 123, 127, 131, 132, 133, 150, 151, 153, r.Intn(1 << 14)}[r.Intn(15)]
			u = append(u, waisTag(tag)...)
			switch r.Intn(3) {
			case 0: // a length that lies
				u = append(u, waisLen(r.Intn(1<<21))...)
			case 1: // a length that fits what follows
				v := make([]byte, r.Intn(40))
				r.Read(v)
				u = append(u, waisLen(len(v))...)
				u = append(u, v...)
			default: // raw bytes
				v := make([]byte, r.Intn(8))
				r.Read(v)
				u = append(u, v...)
			}
		}
		z := []byte("\x17\x01\x00\x00\x00\x00\x00\x05\x00\x00\x00\x1b\x01\x00")
		body := []byte{byte(len(z) >> 8), byte(len(z))}
		body = append(body, z...)
		body = append(body, 0x63)
		body = append(body, waisLen(len(u))...)
		return WAISMessage(append(body, u...))
	})
}

// WAISEndlessDocument answers every retrieval with a full chunk, so the
// document never ends: the chunk asked for is read from the query's last
// byte range ("wb rl" term), and filled with 'x'.
func WAISEndlessDocument() func(net.Conn) {
	return WAISScript(func(_ int, req []byte) []byte {
		start, end := waisRange(req)
		text := bytes.Repeat([]byte("x"), int(end-start))
		return WAISMessage(WAISDocumentResponse(text))
	})
}

// WAISDocumentResponse is a searchResponseAPDU holding one DocumentText.
func WAISDocumentResponse(text []byte) []byte {
	z := []byte("\x17\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x1b\x01\x00")
	var g []byte
	g = append(g, 0x74, 0x01, 0x00) // DocumentID: one byte
	g = append(g, waisTag(127)...)  // DocumentText
	g = append(g, waisLen(len(text))...)
	g = append(g, text...)
	var u []byte
	u = append(u, waisTag(153)...)
	u = append(u, waisLen(len(g))...)
	u = append(u, g...)
	body := []byte{byte(len(z) >> 8), byte(len(z))}
	body = append(body, z...)
	body = append(body, 0x63)
	body = append(body, waisLen(len(u))...)
	return append(body, u...)
}

func waisTag(t int) []byte { return waisLen(t) }

// waisLen encodes n as a compressed integer.
func waisLen(n int) []byte {
	var b []byte
	b = append(b, byte(n&0x7f))
	for n >>= 7; n > 0; n >>= 7 {
		b = append([]byte{byte(n&0x7f) | 0x80}, b...)
	}
	return b
}

// waisRange finds the byte range a retrieval asks for: the numbers after
// the "wb ro" and "wb rl" terms of its type-1 query.
func waisRange(req []byte) (start, end int64) {
	num := func(attr string) int64 {
		i := bytes.Index(req, []byte(attr))
		if i < 0 {
			return 0
		}
		j := i + len(attr) + 1 // the term tag '-' (45)
		if j >= len(req) {
			return 0
		}
		l := int(req[j])
		if j+1+l > len(req) {
			return 0
		}
		v, _ := strconv.ParseInt(string(req[j+1:j+1+l]), 10, 64)
		return v
	}
	return num("wb ro ig ig ig ig"), num("wb rl ig ig ig ig")
}

// WAISDrip answers the init one byte every interval.
func WAISDrip(interval time.Duration) func(net.Conn) {
	return func(c net.Conn) {
		if _, err := ReadWAISMessage(c); err != nil {
			return
		}
		msg := WAISMessage(WAISInitResponse)
		for i := range msg {
			if _, err := c.Write(msg[i : i+1]); err != nil {
				return
			}
			time.Sleep(interval)
		}
	}
}
