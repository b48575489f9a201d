package access

// The WAIS wire format: Z39.50-1988 APDUs with WAIS's own tag-length
// encoding (RFC 1625; the WAIS Interface Protocol Prototype Functional
// Specification 1.5, Thinking Machines, 1990), as freeWAIS-sf 2.2.10 sends
// and reads it (the captures in ../shared/servers/wais/transcripts).
//
// A message is a 25-byte ASCII header, then a body:
//
//	header  %010d body length, "z", "2", "wais      ", " ", " ", "0"
//	body    2-byte big-endian length L of the Z39.50 part, the Z39.50
//	        part (PDU type byte, the APDU's fixed fields, then elements),
//	        then elements outside the Z39.50 part: the user information
//	        (tag 99, holding the WAIS elements 100-155) or a type-1 query
//	        (tag 21).
//
// An element is a tag, a length and that many bytes of value; tag and
// length are "compressed integers": base 128, most significant group
// first, the high bit set on every byte but the last. Numbers are the
// minimal big-endian bytes of the value. The one exception is tag 28, a
// database diagnostic record: a 2-byte big-endian length L, then the
// 2-character code, the text, a surrogate byte (L bytes), and the end of
// record byte 0x1d.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/scheme"
)

// APDU types (Z39.50-1988; the first byte of the Z39.50 part).
const (
	waisInitAPDU           = 20
	waisInitResponseAPDU   = 21
	waisSearchAPDU         = 22
	waisSearchResponseAPDU = 23
)

// Element tags (Z39.50-1988 and the WAIS extensions).
const (
	tagReferenceID          = 2
	tagProtocolVersion      = 3
	tagOptions              = 4
	tagPreferredMessageSize = 5
	tagMaximumRecordSize    = 6
	tagIDAuthentication     = 7
	tagImplementationID     = 8
	tagImplementationName   = 9
	tagImplementationVer    = 10
	tagResultSetName        = 17
	tagDatabaseNames        = 18
	tagElementSetNames      = 19
	tagQueryType            = 20
	tagQuery                = 21
	tagPresentStatus        = 27
	tagDiagnosticRecord     = 28
	tagUserInformation      = 99
	tagSeedWords            = 106
	tagDateFactor           = 111
	tagMaxDocuments         = 114
	tagDocumentID           = 116
	tagVersionNumber        = 117
	tagScore                = 118
	tagBestMatch            = 119
	tagDocumentLength       = 120
	tagSource               = 121
	tagDate                 = 122
	tagHeadline             = 123
	tagDocumentText         = 127
	tagLines                = 131
	tagTypeBlock            = 132
	tagType                 = 133
	tagDocumentHeaderGroup  = 150
	tagShortHeaderGroup     = 151
	tagLongHeaderGroup      = 152
	tagDocumentTextGroup    = 153
	tagHeadlineGroup        = 154
	tagCodeGroup            = 155
)

// waisHeaderLen is the length of the ASCII header before each body.
const waisHeaderLen = 25

// waisMsgHeader returns the header of a body of n bytes.
func waisMsgHeader(n int) []byte {
	return fmt.Appendf(make([]byte, 0, waisHeaderLen), "%010dz2wais        0", n)
}

// parseWAISHeader checks a 25-byte header and returns the body length it
// announces.
func parseWAISHeader(h []byte) (int64, error) {
	if len(h) != waisHeaderLen {
		return 0, &WAISFormatError{Offset: len(h), Msg: "the 25-byte message header ends early"}
	}
	for i := 0; i < 10; i++ {
		if h[i] < '0' || h[i] > '9' {
			return 0, &WAISFormatError{Offset: i, Msg: fmt.Sprintf("the header's body length %q is not 10 decimal digits", h[:10])}
		}
	}
	if h[10] != 'z' {
		return 0, &WAISFormatError{Offset: 10, Msg: fmt.Sprintf("the header's message type is %q, not \"z\" (Z39.50)", h[10:11])}
	}
	n, _ := strconv.ParseInt(string(h[:10]), 10, 64)
	return n, nil
}

// WAISFormatError reports a WAIS message that does not follow the encoding:
// what was wrong and the byte offset in the message body (or header).
type WAISFormatError struct {
	Offset int
	Msg    string
}

// Error formats the problem for a person.
func (e *WAISFormatError) Error() string {
	return fmt.Sprintf("malformed WAIS message at byte %d: %s", e.Offset, e.Msg)
}

// ---- encoding -----------------------------------------------------------

// appendElem appends one element: tag, length, value.
func appendElem(b []byte, tag int, v []byte) []byte {
	b = scheme.AppendWAISInt(b, tag)
	b = scheme.AppendWAISInt(b, len(v))
	return append(b, v...)
}

// appendString appends an element holding a string.
func appendString(b []byte, tag int, s string) []byte {
	b = scheme.AppendWAISInt(b, tag)
	b = scheme.AppendWAISInt(b, len(s))
	return append(b, s...)
}

// appendNum appends an element holding n as its minimal big-endian bytes.
func appendNum(b []byte, tag int, n int) []byte {
	var tmp [4]byte
	i := len(tmp) - 1
	tmp[i] = byte(n)
	for n >>= 8; n > 0; n >>= 8 {
		i--
		tmp[i] = byte(n)
	}
	return appendElem(b, tag, tmp[i:])
}

// append3 appends n as a fixed 3-byte field.
func append3(b []byte, n int) []byte { return append(b, byte(n>>16), byte(n>>8), byte(n)) }

// waisBody assembles a body from its Z39.50 part and what follows it.
func waisBody(z, rest []byte) ([]byte, error) {
	if len(z) > 0xffff {
		return nil, fmt.Errorf("the Z39.50 part of the message is %d bytes, more than its 2-byte length can say", len(z))
	}
	body := make([]byte, 0, 2+len(z)+len(rest))
	body = append(body, byte(len(z)>>8), byte(len(z)))
	body = append(body, z...)
	return append(body, rest...), nil
}

// ---- decoding -----------------------------------------------------------

// waisReader reads elements from a body, tracking offsets for errors.
type waisReader struct {
	b   []byte
	off int // offset of b[0] in the message body
}

func (r *waisReader) errf(at int, format string, args ...any) error {
	return &WAISFormatError{Offset: r.off + at, Msg: fmt.Sprintf(format, args...)}
}

// compressed reads a compressed integer at b[i:]; it returns the value and
// the index after it. At most 4 bytes (28 bits) are accepted.
func (r *waisReader) compressed(i int, what string) (int, int, error) {
	n, start := 0, i
	for k := 0; ; k++ {
		if i >= len(r.b) {
			return 0, 0, r.errf(i, "the %s ends inside the message", what)
		}
		if k == 4 {
			return 0, 0, r.errf(start, "the %s is longer than 4 bytes", what)
		}
		c := r.b[i]
		i++
		n = n<<7 | int(c&0x7f)
		if c&0x80 == 0 {
			return n, i, nil
		}
	}
}

// elem is one element read from a body.
type elem struct {
	tag int
	val []byte
	off int // offset of the tag in the body
	at  int // offset of the value in the reader's bytes
}

// next reads the element at b[i:]. Tag 28 has its own length format.
func (r *waisReader) next(i int) (elem, int, error) {
	start := i
	tag, i, err := r.compressed(i, "element tag")
	if err != nil {
		return elem{}, 0, err
	}
	if tag == tagDiagnosticRecord {
		if i+2 > len(r.b) {
			return elem{}, 0, r.errf(i, "the length of diagnostic record (tag 28) ends inside the message")
		}
		n := int(r.b[i])<<8 | int(r.b[i+1])
		i += 2
		if n < 3 || n+1 > len(r.b)-i {
			return elem{}, 0, r.errf(i-2, "diagnostic record (tag 28) of %d bytes does not fit the %d bytes left", n+1, len(r.b)-i)
		}
		return elem{tag: tag, val: r.b[i : i+n+1], off: r.off + start, at: i}, i + n + 1, nil
	}
	n, i, err := r.compressed(i, fmt.Sprintf("length of element %d", tag))
	if err != nil {
		return elem{}, 0, err
	}
	if n > len(r.b)-i {
		return elem{}, 0, r.errf(start, "element %d announces %d bytes and only %d are left", tag, n, len(r.b)-i)
	}
	return elem{tag: tag, val: r.b[i : i+n], off: r.off + start, at: i}, i + n, nil
}

// all reads the elements of b[i:] up to its end.
func (r *waisReader) all(i int, f func(e elem) error) error {
	for i < len(r.b) {
		e, j, err := r.next(i)
		if err != nil {
			return err
		}
		if err := f(e); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// num reads an element's value as a big-endian number of 1 to 4 bytes.
func num(_ *waisReader, e elem, name string) (int64, error) {
	if len(e.val) == 0 || len(e.val) > 4 {
		return 0, &WAISFormatError{Offset: e.off, Msg: fmt.Sprintf("%s (tag %d) is a number of %d bytes; 1 to 4 are allowed", name, e.tag, len(e.val))}
	}
	var n int64
	for _, c := range e.val {
		n = n<<8 | int64(c)
	}
	return n, nil
}

// waisHeader is one hit of a search response (a DocumentHeaderGroup).
type waisHeader struct {
	DocID    []byte // the DocumentID element's value, opaque
	Score    int64
	Length   int64 // DocumentLength in bytes, -1 when not sent
	Lines    int64 // -1 when not sent
	Types    []string
	Headline string
	Source   string
	Date     string
}

// waisDiag is a database diagnostic record (tag 28).
type waisDiag struct {
	Code string
	Text string
}

func (d waisDiag) String() string { return d.Code + ": " + d.Text }

// waisPDU is a decoded response APDU.
type waisPDU struct {
	Type byte
	// initResponse
	Result               bool
	PreferredMessageSize int64
	MaximumRecordSize    int64
	Implementation       string // ID, name and version joined
	// searchResponse
	SearchStatus  byte
	ResultCount   int64
	Returned      int64
	NextPosition  int64
	PresentStatus int64
	Headers       []waisHeader
	Texts         [][]byte // DocumentText of each DocumentTextGroup
	Diags         []waisDiag
}

// maxWAISDepth bounds how deeply groups may nest.
const maxWAISDepth = 4

// decodeWAIS decodes a response body: an initResponse or a searchResponse.
// Unknown elements are skipped; a length that does not fit, a truncated
// fixed field or an unknown APDU type is an error with its byte offset.
func decodeWAIS(body []byte) (*waisPDU, error) {
	r := &waisReader{b: body}
	if len(body) < 3 {
		return nil, r.errf(len(body), "a body of %d bytes has no Z39.50 part", len(body))
	}
	zlen := int(body[0])<<8 | int(body[1])
	if zlen < 1 || zlen > len(body)-2 {
		return nil, r.errf(0, "the Z39.50 part announces %d bytes and %d follow", zlen, len(body)-2)
	}
	z := &waisReader{b: body[2 : 2+zlen], off: 2}
	p := &waisPDU{Type: z.b[0]}
	i := 1
	fixed := func(n int, name string) (int64, error) {
		if i+n > len(z.b) {
			return 0, z.errf(i, "the %s field of %s ends inside the Z39.50 part", name, apduName(p.Type))
		}
		var v int64
		for _, c := range z.b[i : i+n] {
			v = v<<8 | int64(c)
		}
		i += n
		return v, nil
	}
	var err error
	switch p.Type {
	case waisInitResponseAPDU:
		var v int64
		if v, err = fixed(1, "Result"); err != nil {
			return nil, err
		}
		p.Result = v != 0
	case waisSearchResponseAPDU:
		var v int64
		if v, err = fixed(1, "SearchStatus"); err != nil {
			return nil, err
		}
		p.SearchStatus = byte(v)
		if p.ResultCount, err = fixed(3, "ResultCount"); err != nil {
			return nil, err
		}
		if p.Returned, err = fixed(3, "NumberOfRecordsReturned"); err != nil {
			return nil, err
		}
		if p.NextPosition, err = fixed(3, "NextResultSetPosition"); err != nil {
			return nil, err
		}
	default:
		return nil, z.errf(0, "APDU type %d (%s) is not a response this client reads (21 initResponse, 23 searchResponse)", p.Type, apduName(p.Type))
	}
	var impl []string
	err = z.all(i, func(e elem) error {
		var err error
		switch e.tag {
		case tagPreferredMessageSize:
			p.PreferredMessageSize, err = num(z, e, "PreferredMessageSize")
		case tagMaximumRecordSize:
			p.MaximumRecordSize, err = num(z, e, "MaximumRecordSize")
		case tagImplementationID, tagImplementationName, tagImplementationVer:
			impl = append(impl, string(e.val))
		case tagPresentStatus:
			p.PresentStatus, err = num(z, e, "PresentStatus")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	p.Implementation = strings.Join(impl, " ")
	rest := &waisReader{b: body[2+zlen:], off: 2 + zlen}
	err = rest.all(0, func(e elem) error {
		switch e.tag {
		case tagUserInformation:
			return p.userInfo(rest.child(e), 1)
		case tagDiagnosticRecord:
			return p.diag(rest, e)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// child returns a reader over e's value, with offsets in the body.
func (r *waisReader) child(e elem) *waisReader {
	return &waisReader{b: e.val, off: r.off + e.at}
}

// userInfo reads the WAIS elements of the user information (tag 99).
func (p *waisPDU) userInfo(r *waisReader, depth int) error {
	return r.all(0, func(e elem) error {
		switch e.tag {
		case tagDocumentHeaderGroup, tagShortHeaderGroup, tagLongHeaderGroup, tagHeadlineGroup:
			h, err := header(r.child(e), e, depth+1)
			if err != nil {
				return err
			}
			p.Headers = append(p.Headers, h)
		case tagDocumentTextGroup:
			var text []byte
			found := false
			err := r.child(e).all(0, func(e elem) error {
				if e.tag == tagDocumentText {
					text, found = e.val, true
				}
				return nil
			})
			if err != nil {
				return err
			}
			if !found {
				return &WAISFormatError{Offset: e.off, Msg: "a DocumentTextGroup (tag 153) without DocumentText (tag 127)"}
			}
			p.Texts = append(p.Texts, text)
		case tagDiagnosticRecord:
			return p.diag(r, e)
		}
		return nil
	})
}

// diag reads a diagnostic record: code (2 bytes), text, surrogate, 0x1d.
func (p *waisPDU) diag(r *waisReader, e elem) error {
	v := e.val
	if len(v) < 4 || v[len(v)-1] != 0x1d {
		return &WAISFormatError{Offset: e.off, Msg: "a diagnostic record (tag 28) that does not end with 0x1d"}
	}
	p.Diags = append(p.Diags, waisDiag{Code: string(v[:2]), Text: string(bytes.TrimRight(v[2:len(v)-2], "\x00"))})
	return nil
}

// header reads a document header group.
func header(r *waisReader, group elem, depth int) (waisHeader, error) {
	h := waisHeader{Length: -1, Lines: -1}
	if depth > maxWAISDepth {
		return h, &WAISFormatError{Offset: group.off, Msg: fmt.Sprintf("groups nested more than %d deep", maxWAISDepth)}
	}
	hasID := false
	err := r.all(0, func(e elem) error {
		var err error
		switch e.tag {
		case tagDocumentID:
			h.DocID, hasID = e.val, true
		case tagScore:
			h.Score, err = num(r, e, "Score")
		case tagDocumentLength:
			h.Length, err = num(r, e, "DocumentLength")
		case tagLines:
			h.Lines, err = num(r, e, "Lines")
		case tagHeadline:
			h.Headline = string(e.val)
		case tagSource:
			h.Source = string(e.val)
		case tagDate:
			h.Date = string(e.val)
		case tagType:
			h.Types = append(h.Types, string(e.val))
		case tagTypeBlock:
			err = r.child(e).all(0, func(t elem) error {
				if t.tag == tagType {
					h.Types = append(h.Types, string(t.val))
				}
				return nil
			})
		}
		return err
	})
	if err != nil {
		return h, err
	}
	if !hasID {
		return h, &WAISFormatError{Offset: group.off, Msg: fmt.Sprintf("a document header (tag %d) without a DocumentID (tag 116)", group.tag)}
	}
	return h, nil
}

// apduName names an APDU type for messages.
func apduName(t byte) string {
	switch t {
	case waisInitAPDU:
		return "initAPDU"
	case waisInitResponseAPDU:
		return "initResponseAPDU"
	case waisSearchAPDU:
		return "searchAPDU"
	case waisSearchResponseAPDU:
		return "searchResponseAPDU"
	case 24:
		return "presentAPDU"
	case 25:
		return "presentResponseAPDU"
	}
	return "unknown"
}
