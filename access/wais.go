package access

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/urlkit/urlkit/scheme"
)

// ErrWAISNoWords is returned (wrapped) for the database form of a wais URL,
// wais://host:port/database: a search needs words, which the URL does not
// give (RFC 1738 3.9). Add ?words to the URL; the gateway shows a form.
var ErrWAISNoWords = errors.New("the URL names a database to search and gives no words: add ?words (wais://host:port/database?words, RFC 1738 3.9)")

func init() { registerClient((*execution).wais) }

// wais carries out a WAIS plan over one TCP connection: the messages of
// p.Messages in order (RFC 1625; the encoding in waisapdu.go). A search
// becomes a listing of the hits, one a line (see WriteWAISHits for the
// format); a retrieval streams the document, asked for chunk by chunk.
// Every reply is bounded by MaxReply (a retrieval's by its chunk plus
// MaxReply), every read by the idle timeout.
func (x *execution) wais(p *scheme.WAISPlan) (*Resource, error) {
	if len(p.Messages) < 2 {
		return nil, fmt.Errorf("wais: plan has %d messages; it needs the init and a search or a retrieval", len(p.Messages))
	}
	init, ok := p.Messages[0].(scheme.WAISInitAPDU)
	if !ok {
		return nil, fmt.Errorf("wais: the plan's first message is %T, not the init", p.Messages[0])
	}
	last := p.Messages[len(p.Messages)-1]
	if s, ok := last.(scheme.WAISSearchAPDU); ok && s.AskUser {
		return nil, fmt.Errorf("wais: %w", ErrWAISNoWords)
	}
	raw, err := x.dial("wais", p.Addr)
	if err != nil {
		return nil, err
	}
	stop := x.watch(raw)
	c := &waisConn{x: x, raw: raw, conn: &deadlineConn{Conn: raw, idle: x.opts.readTimeout()}}
	c.br = bufio.NewReaderSize(c.conn, 32<<10)
	closer := func() error { stop(); return raw.Close() }
	fail := func(err error) (*Resource, error) { closer(); return nil, err }

	if err := c.init(init); err != nil {
		return fail(err)
	}
	for i, m := range p.Messages[1:] {
		final := i == len(p.Messages)-2
		switch m := m.(type) {
		case scheme.WAISSearchAPDU:
			if m.AskUser {
				return fail(fmt.Errorf("wais: %w", ErrWAISNoWords))
			}
			hits, diags, err := c.search(m)
			if err != nil {
				return fail(err)
			}
			if !final {
				continue
			}
			closer()
			var b bytes.Buffer
			writeWAISHits(&b, p, m, hits, diags)
			body := x.newBody(&b, nil, "wais", "search", nil, nil)
			return &Resource{ReadCloser: body, Plan: p, Kind: "search", ContentType: "text/plain; charset=utf-8", Size: -1}, nil
		case scheme.WAISRetrieval:
			if !final {
				return fail(fmt.Errorf("wais: a retrieval must be the plan's last message"))
			}
			return c.retrieve(p, m, closer)
		default:
			return fail(fmt.Errorf("wais: plan message %T is not one this client sends", m))
		}
	}
	return fail(errors.New("wais: plan ends before its search or retrieval"))
}

// waisConn is one WAIS connection.
type waisConn struct {
	x    *execution
	raw  net.Conn
	conn net.Conn
	br   *bufio.Reader
	// the sizes the server accepted in its initResponse (0: not said)
	serverMessageSize, serverRecordSize int64
}

// send writes one message: header and body. shown is the trace text.
func (c *waisConn) send(step string, body []byte, shown string) error {
	c.x.opts.traceSent(fmt.Sprintf("%s (%d bytes): %s", apduName(body[2]), len(body), shown))
	msg := append(waisMsgHeader(len(body)), body...)
	if _, err := c.conn.Write(msg); err != nil {
		return c.x.fail("wais", step, err)
	}
	if c.x.opts.Capture != nil {
		c.x.opts.sent(c.raw, true, msg)
	}
	return nil
}

// read reads one message and decodes it; limit bounds its body.
func (c *waisConn) read(step string, limit int) (*waisPDU, int, error) {
	var h [waisHeaderLen]byte
	if _, err := io.ReadFull(c.br, h[:]); err != nil {
		if err == io.EOF {
			err = errors.New("the server closed the connection instead of answering")
		} else if err == io.ErrUnexpectedEOF {
			err = errors.New("the connection ended inside a message header")
		}
		return nil, 0, c.x.fail("wais", step, err)
	}
	n, err := parseWAISHeader(h[:])
	if err != nil {
		return nil, 0, &StepError{Protocol: "wais", Step: step, Err: err}
	}
	if n > int64(limit) {
		return nil, 0, &LimitError{Protocol: "wais", Step: step, Limit: "reply size", Value: fmt.Sprintf("%d bytes (the server announces a message of %d)", limit, n)}
	}
	body := make([]byte, n)
	if k, err := io.ReadFull(c.br, body); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			err = fmt.Errorf("the connection ended inside a message: %d of the %d bytes its header announces arrived", k, n)
		}
		return nil, 0, c.x.fail("wais", step, err)
	}
	if c.x.opts.Capture != nil {
		c.x.opts.received(c.raw, true, append(h[:], body...))
	}
	p, err := decodeWAIS(body)
	if err != nil {
		return nil, 0, &StepError{Protocol: "wais", Step: step, Err: err}
	}
	return p, len(body), nil
}

// init sends the initAPDU and reads the initResponseAPDU.
func (c *waisConn) init(m scheme.WAISInitAPDU) error {
	const step = "init"
	z := []byte{waisInitAPDU}
	z = appendElem(z, tagProtocolVersion, []byte{0x80}) // version 1: the first bit
	z = appendElem(z, tagOptions, []byte{0x80})         // search: the first bit
	z = appendNum(z, tagPreferredMessageSize, m.PreferredMessageSize)
	z = appendNum(z, tagMaximumRecordSize, m.MaximumRecordSize)
	z = appendString(z, tagImplementationName, m.ImplementationName)
	body, err := waisBody(z, nil)
	if err != nil {
		return err
	}
	if err := c.send(step, body, fmt.Sprintf("ProtocolVersion 1, PreferredMessageSize %d, MaximumRecordSize %d, ImplementationName %q", m.PreferredMessageSize, m.MaximumRecordSize, m.ImplementationName)); err != nil {
		return err
	}
	r, n, err := c.read(step, c.x.opts.maxReply())
	if err != nil {
		return err
	}
	c.x.opts.traceRecv(fmt.Sprintf("%s (%d bytes): Result %s, PreferredMessageSize %d, MaximumRecordSize %d, implementation %q", apduName(r.Type), n, acceptText(r.Result), r.PreferredMessageSize, r.MaximumRecordSize, r.Implementation))
	if r.Type != waisInitResponseAPDU {
		return &StepError{Protocol: "wais", Step: step, Err: fmt.Errorf("the server answered the initAPDU with a %s", apduName(r.Type))}
	}
	if !r.Result {
		return &ReplyError{Protocol: "wais", Step: step, Text: "the server refused the initialization (initResponseAPDU Result: reject)"}
	}
	c.serverMessageSize, c.serverRecordSize = r.PreferredMessageSize, r.MaximumRecordSize
	return nil
}

func acceptText(ok bool) string {
	if ok {
		return "accept"
	}
	return "reject"
}

// searchZ returns the Z39.50 part of a searchAPDU.
func searchZ(small, large, medium int, resultSet, database, queryType string) []byte {
	z := []byte{waisSearchAPDU}
	z = append3(z, small)
	z = append3(z, large)
	z = append3(z, medium)
	z = append(z, 1) // ReplaceIndicator: replace a result set of the same name
	z = appendString(z, tagResultSetName, resultSet)
	z = appendString(z, tagDatabaseNames, database)
	z = appendString(z, tagQueryType, queryType)
	return z
}

// search sends a type-3 search and reads the hits.
func (c *waisConn) search(m scheme.WAISSearchAPDU) ([]waisHeader, []waisDiag, error) {
	step := fmt.Sprintf("search %q", m.SeedWords)
	z := searchZ(30, 5000, 30, "", m.Database, "3")
	var u []byte
	u = appendString(u, tagSeedWords, m.SeedWords)
	u = appendNum(u, tagDateFactor, 1)
	u = appendNum(u, tagMaxDocuments, m.MaxDocuments)
	body, err := waisBody(z, appendElem(nil, tagUserInformation, u))
	if err != nil {
		return nil, nil, err
	}
	if err := c.send(step, body, fmt.Sprintf("DatabaseNames %q, QueryType 3, SeedWords %q, MaxDocumentsRetrieved %d", m.Database, m.SeedWords, m.MaxDocuments)); err != nil {
		return nil, nil, err
	}
	r, n, err := c.read(step, c.x.opts.maxReply())
	if err != nil {
		return nil, nil, err
	}
	c.x.opts.traceRecv(fmt.Sprintf("%s (%d bytes): SearchStatus %d, NumberOfRecordsReturned %d, %d headers%s", apduName(r.Type), n, r.SearchStatus, r.Returned, len(r.Headers), diagText(r.Diags)))
	if r.Type != waisSearchResponseAPDU {
		return nil, nil, &StepError{Protocol: "wais", Step: step, Err: fmt.Errorf("the server answered the searchAPDU with a %s", apduName(r.Type))}
	}
	if len(r.Headers) == 0 && len(r.Diags) > 0 {
		return nil, nil, diagError(step, r.Diags)
	}
	return r.Headers, r.Diags, nil
}

func diagText(d []waisDiag) string {
	if len(d) == 0 {
		return ""
	}
	s := make([]string, len(d))
	for i, x := range d {
		s[i] = x.String()
	}
	return ", diagnostics: " + strings.Join(s, "; ")
}

// diagError is the error for a response that holds only diagnostics.
func diagError(step string, d []waisDiag) error {
	e := &ReplyError{Protocol: "wais", Step: step, Text: "diagnostic " + d[0].String()}
	for _, x := range d[1:] {
		e.Text += "; diagnostic " + x.String()
	}
	return e
}

// retrievalBody returns the searchAPDU that asks for bytes [start, end) of
// a document (RFC 1625 4: the type-1 query of four terms, postfix: term,
// term, AND, term, AND, term, AND).
func retrievalBody(m scheme.WAISRetrieval, start, end int64) ([]byte, error) {
	z := searchZ(10, 16, 15, "FOO", m.Database, "1")
	z = appendString(z, tagElementSetNames, " \x1fDocument Text")
	z = appendString(z, tagReferenceID, "3")
	term := func(q []byte, attrs, value string) []byte {
		q = appendString(q, 44, attrs)
		return appendString(q, 45, value)
	}
	and := func(q []byte) []byte { return appendString(q, 46, "a") }
	var q []byte
	q = term(q, "un re ig ig ig ig", m.DocID)
	q = term(q, "wt re ig ig ig ig", m.Type)
	q = and(q)
	q = term(q, "wb ro ig ig ig ig", strconv.FormatInt(start, 10))
	q = and(q)
	q = term(q, "wb rl ig ig ig ig", strconv.FormatInt(end, 10))
	q = and(q)
	return waisBody(z, appendElem(nil, tagQuery, q))
}

// retrieve streams the document, one chunk per searchAPDU.
func (c *waisConn) retrieve(p *scheme.WAISPlan, m scheme.WAISRetrieval, closer func() error) (*Resource, error) {
	chunk := int64(m.Chunk)
	if chunk <= 0 {
		return nil, errors.New("wais: the retrieval's chunk size is not positive")
	}
	if c.serverRecordSize > 0 && c.serverRecordSize < chunk {
		chunk = c.serverRecordSize
	}
	r := &waisDocReader{c: c, m: m, chunk: chunk}
	// The first chunk is read now, so that a refusal is an error of
	// Execute, not of the stream.
	if err := r.fetch(); err != nil {
		closer()
		return nil, err
	}
	meter := c.x.newMeter(r, "wais", "retrieve "+strconv.Quote(m.Type)+" document")
	body := c.x.newBody(meter, meter, "wais", "retrieve", nil, closer)
	return &Resource{ReadCloser: body, Plan: p, Kind: "file", ContentType: waisContentType(m.Type), Size: -1}, nil
}

// waisDocReader reads a document chunk by chunk.
type waisDocReader struct {
	c           *waisConn
	m           scheme.WAISRetrieval
	chunk       int64
	off         int64 // bytes received so far
	unreadBytes       // the current chunk's unread bytes
}

func (r *waisDocReader) step() string {
	return fmt.Sprintf("retrieve bytes [%d, %d)", r.off, r.off+r.chunk)
}

// fetch asks for the next chunk.
func (r *waisDocReader) fetch() error {
	step := r.step()
	body, err := retrievalBody(r.m, r.off, r.off+r.chunk)
	if err != nil {
		return err
	}
	if err := r.c.send(step, body, fmt.Sprintf("DatabaseNames %q, QueryType 1, DocumentID (%d bytes) AND type %q AND bytes [%d, %d)", r.m.Database, len(r.m.DocID), r.m.Type, r.off, r.off+r.chunk)); err != nil {
		return err
	}
	resp, n, err := r.c.read(step, int(r.chunk)+r.c.x.opts.maxReply())
	if err != nil {
		return err
	}
	got := -1
	if len(resp.Texts) == 1 {
		got = len(resp.Texts[0])
	}
	r.c.x.opts.traceRecv(fmt.Sprintf("%s (%d bytes): SearchStatus %d, %d DocumentText of %d bytes%s", apduName(resp.Type), n, resp.SearchStatus, len(resp.Texts), max(got, 0), diagText(resp.Diags)))
	if resp.Type != waisSearchResponseAPDU {
		return &StepError{Protocol: "wais", Step: step, Err: fmt.Errorf("the server answered the searchAPDU with a %s", apduName(resp.Type))}
	}
	switch {
	case len(resp.Texts) == 0 && len(resp.Diags) > 0:
		if r.off > 0 && outOfRange(resp.Diags) {
			// The previous chunk ended the document exactly.
			r.done = true
			return nil
		}
		return diagError(step, resp.Diags)
	case len(resp.Texts) != 1:
		return &StepError{Protocol: "wais", Step: step, Err: fmt.Errorf("the response holds %d documents; a retrieval gives one", len(resp.Texts))}
	case int64(got) > r.chunk:
		return &StepError{Protocol: "wais", Step: step, Err: fmt.Errorf("the server sent %d bytes for a chunk of %d", got, r.chunk)}
	}
	r.unread = resp.Texts[0]
	r.off += int64(got)
	if int64(got) < r.chunk {
		r.done = true
	}
	return nil
}

// outOfRange reports whether the diagnostics say the range asked for lies
// past the document's end (freeWAIS-sf: "Request out of range").
func outOfRange(d []waisDiag) bool {
	for _, x := range d {
		if strings.Contains(strings.ToLower(x.Text), "out of range") {
			return true
		}
	}
	return false
}

func (r *waisDocReader) Read(p []byte) (int, error) { return r.read(p, r.fetch) }

// waisContentType is the media type of a WAIS document type.
func waisContentType(t string) string {
	switch strings.ToUpper(t) {
	case "TEXT", "WSRC", "TEXT-FTP":
		return "text/plain"
	case "HTML":
		return "text/html"
	case "GIF":
		return "image/gif"
	case "PICT":
		return "image/x-pict"
	case "TIFF":
		return "image/tiff"
	case "JPEG":
		return "image/jpeg"
	case "PS":
		return "application/postscript"
	}
	return "application/octet-stream"
}

// WAISHit is one document a WAIS search found, as a listing line gives it.
type WAISHit struct {
	URL      string // wais://host:port/database/wtype/wpath
	Score    int64
	Size     int64 // bytes; -1 when the server does not say
	Lines    int64 // -1 when the server does not say
	Type     string
	Headline string
}

// waisHitsHeader starts a listing of hits.
const waisHitsHeader = "# WAIS search: "

// writeWAISHits writes the listing of a search: a comment line, then one
// line per hit: URL, score, size in bytes, lines, type and headline,
// separated by TABs (the headline escaped with EscapeText, "-" for a
// number the server did not send), then a comment line per diagnostic.
func writeWAISHits(w io.Writer, p *scheme.WAISPlan, m scheme.WAISSearchAPDU, hits []waisHeader, diags []waisDiag) {
	fmt.Fprintf(w, "%s%d documents for %s in database %s (URL, score, bytes, lines, type, headline)\n",
		waisHitsHeader, len(hits), strconv.Quote(m.SeedWords), strconv.Quote(m.Database))
	base := waisBase(p.URL)
	num := func(n int64) string {
		if n < 0 {
			return "-"
		}
		return strconv.FormatInt(n, 10)
	}
	for _, h := range hits {
		t := "TEXT"
		if len(h.Types) > 0 {
			t = h.Types[0]
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%s\n", scheme.WAISDocumentURL(base, t, h.DocID), h.Score, num(h.Length), num(h.Lines), EscapeText(t), EscapeText(h.Headline))
	}
	for _, d := range diags {
		fmt.Fprintf(w, "# diagnostic %s\n", EscapeText(d.String()))
	}
}

// waisBase is the URL without its search: wais://host:port/database.
func waisBase(u string) string {
	if i := strings.IndexByte(u, '?'); i >= 0 {
		return u[:i]
	}
	return u
}

// ReadWAISHits reads the listing of a WAIS search (a Resource of Kind
// "search" from a wais plan): the hits, and the diagnostics the server
// added, each as "code: text".
func ReadWAISHits(r io.Reader) (hits []WAISHit, diags []string, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), DefaultMaxReply)
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "# diagnostic "); ok {
			diags = append(diags, d)
			continue
		}
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		f := strings.SplitN(line, "\t", 6)
		if len(f) != 6 {
			return hits, diags, fmt.Errorf("wais: listing line %q has %d fields, not 6", EscapeText(line), len(f))
		}
		h := WAISHit{URL: f[0], Type: f[4], Headline: f[5], Size: -1, Lines: -1}
		h.Score, _ = strconv.ParseInt(f[1], 10, 64)
		if n, err := strconv.ParseInt(f[2], 10, 64); err == nil {
			h.Size = n
		}
		if n, err := strconv.ParseInt(f[3], 10, 64); err == nil {
			h.Lines = n
		}
		hits = append(hits, h)
	}
	return hits, diags, sc.Err()
}
