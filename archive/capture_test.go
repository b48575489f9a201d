package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nlnwa/gowarc/v3"
	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/access"
	"github.com/urlkit/urlkit/internal/testkit/fakeservers"
	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testio"
	"github.com/urlkit/urlkit/scheme"
)

// captureURL fetches s as `urlkit get --warc` does: the exchange and the
// resource recorded into w, the records written once the resource has
// been read whole. It returns the resource's bytes.
func captureURL(t *testing.T, w *Writer, s string, cfg scheme.Config, opts *access.Options) ([]byte, error) {
	t.Helper()
	b, _, err := captureLive(t, w, s, cfg, opts)
	return b, err
}

// captureLive is captureURL, also returning the resource as access gave
// it (its stream read).
func captureLive(t *testing.T, w *Writer, s string, cfg scheme.Config, opts *access.Options) ([]byte, *access.Resource, error) {
	t.Helper()
	u := urlkit.MustParse(s)
	p, err := scheme.PlanOf(u, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if opts == nil {
		opts = &access.Options{}
	}
	f := w.Capture(u, opts)
	live, err := access.Execute(context.Background(), p, opts)
	if err != nil {
		f.Abandon()
		return nil, nil, err
	}
	r := f.Resource(live)
	b, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		f.Abandon()
		return b, live, err
	}
	return b, live, f.Finish()
}

// record is a record as the tests read it back.
type record struct {
	typ    string
	header *gowarc.WarcFields
	block  []byte
	offset int64
}

// readWARC reads every record of path with gowarc, strictly: a record
// whose digests or lengths do not hold fails the test (WARC/1.1 5.8, 5.9).
func readWARC(t *testing.T, path string) []record {
	t.Helper()
	rd, err := gowarc.NewWarcFileReader(path, 0, gowarc.WithStrictValidation(), gowarc.WithDefaultDigestAlgorithm(DigestAlgorithm))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var out []record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: record %d: %v", path, len(out)+1, err)
		}
		if len(rec.Validation) > 0 {
			t.Errorf("%s: record %d at %d: %v", path, len(out)+1, rec.Offset, rec.Validation)
		}
		raw, err := rec.WarcRecord.Block().RawBytes()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(raw)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rec.WarcRecord.ValidateDigest(); err != nil {
			t.Errorf("record %d: %v", len(out)+1, err)
		}
		out = append(out, record{typ: rec.WarcRecord.Type().String(), header: rec.WarcRecord.WarcHeader(), block: b, offset: rec.Offset})
		rec.Close()
	}
	return out
}

func newWARC(t *testing.T) (*Writer, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.warc.gz")
	w, err := Create(path, [][2]string{{"software", "urlkit test"}, {"format", "WARC File Format 1.1"}})
	if err != nil {
		t.Fatal(err)
	}
	return w, path
}

func closeWARC(t *testing.T, w *Writer, path string) []record {
	t.Helper()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return readWARC(t, path)
}

// checkPair checks a resource record and its metadata record: type,
// target, protocol, IP, digests, the payload, and the tie.
func checkPair(t *testing.T, recs []record, i int, target, media, proto, exchType string, payload []byte) {
	t.Helper()
	if len(recs) < i+2 {
		t.Fatalf("%d records, want at least %d", len(recs), i+2)
	}
	r, m := recs[i], recs[i+1]
	if r.typ != "resource" || m.typ != "metadata" {
		t.Fatalf("records %d, %d are %s, %s; want resource, metadata", i, i+1, r.typ, m.typ)
	}
	for _, x := range []record{r, m} {
		h := x.header
		if h.Get(gowarc.WarcTargetURI) != target || h.Get(WARCProtocolField) != proto ||
			h.Get(gowarc.WarcIPAddress) != "127.0.0.1" || !h.Has(gowarc.WarcDate) ||
			!strings.HasPrefix(h.Get(gowarc.WarcBlockDigest), "sha1:") || !strings.HasPrefix(h.Get(gowarc.WarcPayloadDigest), "sha1:") ||
			h.GetId(gowarc.WarcWarcinfoID) != recs[0].header.GetId(gowarc.WarcRecordID) {
			t.Errorf("%s record header:\n%s", x.typ, h)
		}
	}
	if got := r.header.Get(gowarc.ContentType); got != media {
		t.Errorf("resource Content-Type %q, want %q", got, media)
	}
	if got := m.header.Get(gowarc.ContentType); got != exchType {
		t.Errorf("metadata Content-Type %q, want %q", got, exchType)
	}
	if !bytes.Equal(r.block, payload) {
		t.Errorf("resource block %q, want %q", r.block, payload)
	}
	if m.header.GetId(gowarc.WarcConcurrentTo) != r.header.GetId(gowarc.WarcRecordID) {
		t.Errorf("metadata Concurrent-To %q, resource id %q", m.header.Get(gowarc.WarcConcurrentTo), r.header.Get(gowarc.WarcRecordID))
	}
}

// Gopher (RFC 1436): the menu as received, terminator and dot-stuffing
// removed, as a text/x-gopher-menu resource; the selector line exactly as
// sent in the metadata record; a document of type 0 as text/plain.
func TestCaptureGopher(t *testing.T) {
	menu := "iHello\t\terror.host\t1\r\n0About\t/about\texample.org\t70\r\n..dot\t/d\texample.org\t70\r\n.\r\n"
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": []byte(menu), "/about": []byte("about us\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	w, path := newWARC(t)
	got, err := captureURL(t, w, "gopher://"+gs.Addr()+"/1/m", scheme.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := captureURL(t, w, "gopher://"+gs.Addr()+"/0/about", scheme.Config{}, nil); err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	if len(recs) != 5 || recs[0].typ != "warcinfo" {
		t.Fatalf("%d records, the first %s", len(recs), recs[0].typ)
	}
	if !bytes.Contains(recs[0].block, []byte("software: urlkit test\r\n")) || recs[0].header.Get(gowarc.WarcFilename) != "t.warc.gz" {
		t.Errorf("warcinfo:\n%s\n%s", recs[0].header, recs[0].block)
	}
	wantMenu := "iHello\t\terror.host\t1\r\n0About\t/about\texample.org\t70\r\n.dot\t/d\texample.org\t70\r\n"
	if string(got) != wantMenu {
		t.Errorf("menu read %q", got)
	}
	checkPair(t, recs, 1, "gopher://"+gs.Addr()+"/1/m", "text/x-gopher-menu", "gopher", GopherConversationType, []byte(wantMenu))
	if want := "* connection to " + gs.Addr() + " (" + gs.Addr() + ")\r\n> /m\r\n"; string(recs[2].block) != want {
		t.Errorf("conversation %q, want %q", recs[2].block, want)
	}
	checkPair(t, recs, 3, "gopher://"+gs.Addr()+"/0/about", "text/plain", "gopher", GopherConversationType, []byte("about us\r\n"))
	// Spelt as the IIPC proposal spells it, in every gzip member.
	raw, _ := os.ReadFile(path)
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := io.ReadAll(zr)
	if n := bytes.Count(all, []byte("\r\nWARC-Protocol: gopher\r\n")); n != 4 {
		t.Errorf("%d WARC-Protocol fields, want 4", n)
	}
}

// FTP as Heritrix writes it: the file as a resource, the control
// conversation as text/x-ftp-control-conversation, the password masked as
// `urlkit plan` masks it (scheme.FTPCommand.Redacted).
func TestCaptureFTP(t *testing.T) {
	f := &hostile.FTP{Files: map[string][]byte{"x": []byte("payload")}, NoEPSV: true}
	s := hostile.Serve(t, f.Serve)
	w, path := newWARC(t)
	if _, err := captureURL(t, w, "ftp://u:secret@"+s.Addr+"/x;type=i", scheme.Config{}, nil); err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	// The URL as urlkit plan shows it: the password masked (URL.Redacted).
	checkPair(t, recs, 1, "ftp://u:"+urlkit.RedactedPassword+"@"+s.Addr+"/x;type=i", OctetStream, "ftp", FTPConversationType, []byte("payload"))
	conv := string(recs[2].block)
	if strings.Contains(conv, "secret") {
		t.Errorf("the password reached the archive:\n%s", conv)
	}
	for _, want := range []string{"> USER u\r\n", "> PASS ", "> EPSV\r\n< 5", "> PASV\r\n< 227 ", "* data connection to 127.0.0.1:", "> RETR x\r\n< 150 ", "< 226 "} {
		if !strings.Contains(conv, want) {
			t.Errorf("conversation lacks %q:\n%s", want, conv)
		}
	}
	if !strings.HasPrefix(conv, "* connection to ") || !strings.Contains(conv, "\r\n< 220") {
		t.Errorf("conversation start:\n%s", conv)
	}
}

// An ftp directory: the listing as received on the data connection, its
// media type naming the command that produced it.
func TestCaptureFTPListing(t *testing.T) {
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/a": []byte("a"), "/pub/b": []byte("b")})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	w, path := newWARC(t)
	got, err := captureURL(t, w, "ftp://"+fs.Addr()+"/pub/", scheme.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	ct := recs[1].header.Get(gowarc.ContentType)
	if !strings.HasPrefix(ct, "text/x-ftp-listing; format=") || !bytes.Equal(recs[1].block, got) {
		t.Errorf("listing %q as %q", recs[1].block, ct)
	}
	r, err := ResourceOf(Captured{Type: recs[1].typ, TargetURI: recs[1].header.Get(gowarc.WarcTargetURI), ContentType: ct,
		Length: int64(len(recs[1].block)), Block: io.NopCloser(bytes.NewReader(recs[1].block))}, scheme.Config{})
	if err != nil || r.Kind != "directory" || r.ListFormat == "" {
		t.Errorf("read back: %+v %v", r, err)
	}
}

// NNTP (RFC 3977): the article, dot-stuffing undone, as message/rfc822;
// the commands and status lines in the conversation.
func TestCaptureNNTP(t *testing.T) {
	s := hostile.Serve(t, hostile.NNTPArticle("Subject: x\r\n\r\n..hi\r\n.\r\n"))
	w, path := newWARC(t)
	got, err := captureURL(t, w, "nntp://"+s.Addr+"/g/1", scheme.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	if string(got) != "Subject: x\r\n\r\n.hi\r\n" {
		t.Errorf("article %q", got)
	}
	checkPair(t, recs, 1, "nntp://"+s.Addr+"/g/1", "message/rfc822", "nntp", NNTPConversationType, got)
	conv := string(recs[2].block)
	for _, want := range []string{"< 200 hostile news\r\n", "> GROUP g\r\n< 211 ", "> ARTICLE 1\r\n< 220 1 <a@b> article\r\n"} {
		if !strings.Contains(conv, want) {
			t.Errorf("conversation lacks %q:\n%s", want, conv)
		}
	}
}

// WAIS (RFC 1625): the document as a resource, every message sent and
// received, whole, in the binary conversation.
func TestCaptureWAIS(t *testing.T) {
	doc := []byte("The document.\n")
	s := hostile.Serve(t, hostile.WAISScript(func(n int, body []byte) []byte {
		return hostile.WAISMessage(hostile.WAISDocumentResponse(doc))
	}))
	w, path := newWARC(t)
	target := "wais://" + s.Addr + "/db/TEXT/docid"
	got, err := captureURL(t, w, target, scheme.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	checkPair(t, recs, 1, target, "text/plain", "wais", WAISConversationType, got)
	conv := recs[2].block
	init := hostile.WAISMessage(hostile.WAISInitResponse)
	if !bytes.Contains(conv, []byte(fmt.Sprintf("< %d\r\n%s\r\n", len(init), init))) || !bytes.Contains(conv, []byte("\r\n> ")) {
		t.Errorf("conversation %q", conv)
	}
}

// Prospero: the directory's links as a resource, the ARDP datagrams as
// sent and received in the conversation.
func TestCaptureProspero(t *testing.T) {
	d := &hostile.ProsperoDirectory{Replies: map[string]string{"LIST": "LINK L FILE a 'INTERNET-D' h ASCII /d/a 0 0\n"}, Size: 1250, Window: 16}
	s := hostile.ServeUDP(t, d.Handle)
	w, path := newWARC(t)
	target := "prospero://" + s.Addr + "//d"
	got, err := captureURL(t, w, target, scheme.Config{}, &access.Options{ReadTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	checkPair(t, recs, 1, target, "text/x-prospero-listing; charset=utf-8", "prospero", ProsperoConversationType, got)
	conv := string(recs[2].block)
	if !strings.HasPrefix(conv, "* UDP to 127.0.0.1:") || !strings.Contains(conv, "\r\n> ") || !strings.Contains(conv, "\r\n< ") || !strings.Contains(conv, "LIST") {
		t.Errorf("conversation %q", conv)
	}
}

// A file: URL: a resource record only, no IP, no protocol (nothing goes
// over a network).
func TestCaptureFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("local\n"), 0o644)
	w, path := newWARC(t)
	target := "file://" + filepath.ToSlash(filepath.Join(dir, "a.txt"))
	if _, err := captureURL(t, w, target, scheme.Config{}, nil); err != nil {
		t.Fatal(err)
	}
	recs := closeWARC(t, w, path)
	if len(recs) != 2 || recs[1].typ != "resource" || string(recs[1].block) != "local\n" ||
		recs[1].header.Has(gowarc.WarcIPAddress) || recs[1].header.Has(WARCProtocolField) || recs[1].header.Get(gowarc.ContentType) != "text/plain; charset=utf-8" {
		t.Fatalf("records %+v", recs)
	}
}

// HTTP as wget and warcio write it: the response exactly as received in a
// response record, the request as sent
// in a request record naming it in WARC-Concurrent-To; every redirect hop
// its own pair, under its own URL.
func TestCaptureHTTP(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "new page\n")
	}))
	defer hs.Close()
	w, path := newWARC(t)
	got, err := captureURL(t, w, hs.URL+"/old", scheme.Config{}, &access.Options{FollowRedirects: true})
	if err != nil || string(got) != "new page\n" {
		t.Fatalf("%q %v", got, err)
	}
	recs := closeWARC(t, w, path)
	if len(recs) != 5 {
		t.Fatalf("%d records", len(recs))
	}
	for i, want := range []string{hs.URL + "/old", hs.URL + "/new"} {
		resp, req := recs[1+2*i], recs[2+2*i]
		if resp.typ != "response" || req.typ != "request" || resp.header.Get(gowarc.WarcTargetURI) != want || req.header.Get(gowarc.WarcTargetURI) != want ||
			resp.header.Get(gowarc.ContentType) != HTTPResponseType || req.header.Get(gowarc.ContentType) != HTTPRequestType ||
			req.header.GetId(gowarc.WarcConcurrentTo) != resp.header.GetId(gowarc.WarcRecordID) ||
			resp.header.Get(WARCProtocolField) != "http/1.0" || resp.header.Get(gowarc.WarcIPAddress) != "127.0.0.1" {
			t.Errorf("hop %d:\n%s\n%s", i+1, resp.header, req.header)
		}
		if !bytes.HasPrefix(req.block, []byte("GET /")) || !bytes.HasPrefix(resp.block, []byte("HTTP/1.0 ")) {
			t.Errorf("hop %d blocks %q %q", i+1, req.block, resp.block)
		}
	}
	if !bytes.HasPrefix(recs[3].block, []byte("HTTP/1.0 200 OK\r\n")) || !bytes.HasSuffix(recs[3].block, []byte("\r\n\r\nnew page\n")) {
		t.Errorf("response not as received: %q", recs[3].block)
	}
	r, err := ResourceOf(Captured{Type: recs[3].typ, TargetURI: recs[3].header.Get(gowarc.WarcTargetURI), ContentType: HTTPResponseType,
		Block: io.NopCloser(bytes.NewReader(recs[3].block))}, scheme.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(r); string(b) != "new page\n" || r.ContentType != "text/plain" {
		t.Errorf("replayed %q %q", b, r.ContentType)
	}
}

// The same payload twice: the second is a revisit record naming the
// first (WARC/1.1 6.7.2), its block empty for a resource.
func TestCaptureRevisit(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/a": []byte("same\r\n.\r\n"), "/b": []byte("same\r\n.\r\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	w, path := newWARC(t)
	for _, s := range []string{"/0/a", "/0/b"} {
		if _, err := captureURL(t, w, "gopher://"+gs.Addr()+s, scheme.Config{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	recs := closeWARC(t, w, path)
	if len(recs) != 5 || recs[3].typ != "revisit" {
		t.Fatalf("records: %d, the fourth %s", len(recs), recs[3].typ)
	}
	rv := recs[3].header
	if rv.GetId(gowarc.WarcRefersTo) != recs[1].header.GetId(gowarc.WarcRecordID) || rv.Get(gowarc.WarcProfile) != RevisitProfile ||
		rv.Get(gowarc.WarcRefersToTargetURI) != recs[1].header.Get(gowarc.WarcTargetURI) || rv.Get(gowarc.WarcPayloadDigest) != recs[1].header.Get(gowarc.WarcPayloadDigest) ||
		len(recs[3].block) != 0 || rv.Get(gowarc.WarcTargetURI) != "gopher://"+gs.Addr()+"/0/b" {
		t.Errorf("revisit:\n%s", rv)
	}
	if recs[4].header.GetId(gowarc.WarcConcurrentTo) != rv.GetId(gowarc.WarcRecordID) {
		t.Errorf("metadata not tied to the revisit")
	}
}

// A retrieval that fails leaves nothing in the file: the resource cut off
// by the server (an NNTP article without its "." line is incomplete, RFC
// 3977 3.1.1).
func TestCaptureFailedFetchLeavesNothing(t *testing.T) {
	s := hostile.Serve(t, hostile.NNTPArticle("Subject: x\r\n\r\ncut"))
	w, path := newWARC(t)
	if _, err := captureURL(t, w, "nntp://"+s.Addr+"/g/1", scheme.Config{}, nil); err == nil {
		t.Fatal("a cut article was read as complete")
	}
	if recs := closeWARC(t, w, path); len(recs) != 1 {
		t.Errorf("%d records after a failed fetch, want the warcinfo only", len(recs))
	}
	// The spool files went with the records.
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Errorf("directory holds %v", ents)
	}
}

// A kept FTP session (access.FTPSessions, as the gateway keeps them): the
// second retrieval's conversation starts with the session's address and
// holds its own commands, not the first's.
func TestCaptureFTPKeptSession(t *testing.T) {
	fs, err := fakeservers.FTP(map[string][]byte{"/a/f.txt": []byte("one\n"), "/a/g.txt": []byte("two\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	pool := &access.FTPSessions{}
	defer pool.Close()
	w, path := newWARC(t)
	for _, s := range []string{"/a/f.txt", "/a/g.txt"} {
		if _, err := captureURL(t, w, "ftp://"+fs.Addr()+s, scheme.Config{}, &access.Options{FTPSessions: pool}); err != nil {
			t.Fatal(err)
		}
	}
	if n := fs.Conns.Load(); n != 1 {
		t.Fatalf("%d control connections, want 1 (the session kept)", n)
	}
	recs := closeWARC(t, w, path)
	checkPair(t, recs, 3, "ftp://"+fs.Addr()+"/a/g.txt", OctetStream, "ftp", FTPConversationType, []byte("two\n"))
	conv := string(recs[4].block)
	if !strings.HasPrefix(conv, "* connection to 127.0.0.1:") || !strings.Contains(conv, "> RETR g.txt\r\n") || strings.Contains(conv, "f.txt") {
		t.Errorf("second conversation:\n%s", conv)
	}
}

// An http answer that is not the resource is still what the server sent:
// a 404 and a redirect not followed are recorded (RecordsFailure), and
// read back as the errors access gave.
func TestCaptureHTTPFailures(t *testing.T) {
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
	}))
	defer hs.Close()
	w, path := newWARC(t)
	for _, p := range []string{"/old", "/gone"} {
		u := urlkit.MustParse(hs.URL + p)
		pl, _ := scheme.PlanOf(u, scheme.Config{})
		opts := &access.Options{}
		f := w.Capture(u, opts)
		_, err := access.Execute(context.Background(), pl, opts)
		if !RecordsFailure(err) {
			t.Fatalf("%s: %v is not recorded", p, err)
		}
		if err := f.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	recs := closeWARC(t, w, path)
	if len(recs) != 5 {
		t.Fatalf("%d records", len(recs))
	}
	var re *access.RedirectError
	var se *access.HTTPStatusError
	for i, want := range []func(error) bool{
		func(err error) bool { return errors.As(err, &re) && re.Code == 301 && re.Location == "/new" },
		func(err error) bool { return errors.As(err, &se) && se.Code == 404 },
	} {
		rec := recs[1+2*i]
		_, err := ResourceOf(Captured{Type: rec.typ, TargetURI: rec.header.Get(gowarc.WarcTargetURI), ContentType: HTTPResponseType,
			Block: io.NopCloser(bytes.NewReader(rec.block))}, scheme.Config{})
		if !want(err) {
			t.Errorf("record %d read back as %v", 2+2*i, err)
		}
	}
	if RecordsFailure(errors.New("ftp: RETR x: 550 no")) || RecordsFailure(&access.StepError{Protocol: "http"}) {
		t.Error("a failure that is not an answer is recorded")
	}
}

// https: the bytes are the plaintext ones, and WARC-Protocol names both
// layers, one field each (the IIPC proposal's layering: http/1.0, tls/1.3).
func TestCaptureHTTPS(t *testing.T) {
	hs := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secret page\n")
	}))
	defer hs.Close()
	// The system roots are read once, at the first verification: this
	// package's tests make no other TLS connection.
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw}), 0o644)
	t.Setenv("SSL_CERT_FILE", ca)
	w, path := newWARC(t)
	if got, err := captureURL(t, w, hs.URL+"/", scheme.Config{}, nil); err != nil || string(got) != "secret page\n" {
		t.Fatalf("%q %v", got, err)
	}
	recs := closeWARC(t, w, path)
	resp := recs[1]
	if p := resp.header.GetAll(WARCProtocolField); strings.Join(p, ",") != "http/1.0,tls/1.3" || !bytes.HasSuffix(resp.block, []byte("\r\n\r\nsecret page\n")) {
		t.Errorf("https response: protocols %q, block %q", p, resp.block)
	}
	if !bytes.HasPrefix(recs[2].block, []byte("GET / HTTP/1.0\r\n")) {
		t.Errorf("request %q", recs[2].block)
	}
}

// Every kind of resource comes back from its record as access gave it
// live (ResourceOf over what capture wrote: one table, both ways): kind,
// listing format, media type, the ftp fallback to a directory, http's
// status and header, and the bytes. The one difference by design: a
// document whose type access did not know reads back as
// application/octet-stream (WARC/1.1 5.6).
func TestCaptureReplaysAsLive(t *testing.T) {
	gs, err := fakeservers.Gopher(map[string][]byte{"/m": []byte("0a\t/a\th\t70\r\n.\r\n"), "/a": []byte("text\r\n.\r\n"), "/g": []byte("GIF89a")})
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	fs, err := fakeservers.FTP(map[string][]byte{"/pub/f.txt": []byte("ftp file\n"), "/pub/d/x": []byte("x")})
	if err != nil {
		t.Fatal(err)
	}
	defer fs.Close()
	news := hostile.Serve(t, hostile.NNTPArticle("Subject: s\r\n\r\nbody\r\n.\r\n"))
	wais := hostile.Serve(t, hostile.WAISScript(func(int, []byte) []byte {
		return hostile.WAISMessage(hostile.WAISDocumentResponse([]byte("wais doc\n")))
	}))
	pd := &hostile.ProsperoDirectory{Replies: map[string]string{"LIST": "LINK L FILE a 'INTERNET-D' h ASCII /d/a 0 0\n"}, Size: 1250, Window: 16}
	prospero := hostile.ServeUDP(t, pd.Handle)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("X-Test", "1")
		io.WriteString(w, "<p>page</p>\n")
	}))
	defer hs.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.html"), []byte("<p>local</p>\n"), 0o644)
	urls := []string{
		"gopher://" + gs.Addr() + "/1/m", "gopher://" + gs.Addr() + "/0/a", "gopher://" + gs.Addr() + "/g/g",
		"ftp://" + fs.Addr() + "/pub/", "ftp://" + fs.Addr() + "/pub/f.txt", "ftp://" + fs.Addr() + "/pub/d",
		"nntp://" + news.Addr + "/g/1",
		"wais://" + wais.Addr + "/db/TEXT/id",
		"prospero://" + prospero.Addr + "//d",
		"file://" + filepath.ToSlash(dir) + "/", "file://" + filepath.ToSlash(dir) + "/f.html",
		hs.URL + "/p",
	}
	w, path := newWARC(t)
	type liveOne struct {
		r     *access.Resource
		bytes []byte
	}
	var lives []liveOne
	for _, u := range urls {
		b, live, err := captureLive(t, w, u, scheme.Config{}, &access.Options{ReadTimeout: 2 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		lives = append(lives, liveOne{live, b})
	}
	recs := closeWARC(t, w, path)
	i := 0
	for _, rec := range recs {
		if rec.typ != TypeResource && rec.typ != TypeResponse {
			continue
		}
		l := lives[i]
		u := urls[i]
		i++
		got, err := ResourceOf(Captured{Type: rec.typ, TargetURI: rec.header.Get(gowarc.WarcTargetURI), ContentType: rec.header.Get(gowarc.ContentType),
			Length: int64(len(rec.block)), Block: io.NopCloser(bytes.NewReader(rec.block))}, scheme.Config{})
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		b, _ := io.ReadAll(got)
		wantType := l.r.ContentType
		if wantType == "" && l.r.Kind == "file" {
			wantType = OctetStream
		}
		if got.Kind != l.r.Kind || got.ListFormat != l.r.ListFormat || got.ContentType != wantType || got.Directory != l.r.Directory ||
			got.Status != l.r.Status || fmt.Sprint(got.Header) != fmt.Sprint(l.r.Header) || !bytes.Equal(b, l.bytes) || ProtocolOf(got.Plan) != ProtocolOf(l.r.Plan) {
			t.Errorf("%s: live kind %q list %q type %q dir %v status %q, %d bytes; replayed kind %q list %q type %q dir %v status %q, %d bytes",
				u, l.r.Kind, l.r.ListFormat, l.r.ContentType, l.r.Directory, l.r.Status, len(l.bytes), got.Kind, got.ListFormat, got.ContentType, got.Directory, got.Status, len(b))
		}
	}
	if i != len(urls) {
		t.Errorf("%d payload records for %d URLs", i, len(urls))
	}
}

// Whatever a hostile server sends (issue 33 item 7, the writing side),
// the file captured from it is one every reader accepts: a fetch that
// fails leaves no record, one that succeeds leaves its whole pair, and
// gowarc reads the file strictly. The servers are internal/testkit/hostile's,
// each misbehaving one way; the fetches run under small limits.
func TestCaptureHostile(t *testing.T) {
	garbage := string(bytes.Repeat([]byte("\x00\x1b[2J\xff\r\r\n.\r\n\t"), 500))
	cases := []struct {
		name   string
		handle func(net.Conn)
		url    string // with HOST for the server's address
	}{
		{"gopher garbage", hostile.GopherReply(garbage), "gopher://HOST/0/x"},
		{"gopher menu without end", hostile.GopherEndlessMenu(0), "gopher://HOST/1/m"},
		{"gopher menu of long lines", hostile.GopherLongMenu(1 << 20), "gopher://HOST/1/m"},
		{"binary junk as a menu", hostile.Garbage(50000), "gopher://HOST/1/m"},
		{"http lying Content-Length", hostile.HTTPResponse("HTTP/1.0 200 OK\r\nContent-Length: 1000\r\n\r\nshort"), "http://HOST/"},
		{"http header without end", hostile.HTTPEndlessHeader, "http://HOST/"},
		{"http header of a bare LF", hostile.HTTPResponse("HTTP/1.0 200 OK\nContent-Type: text/plain\n\nbody"), "http://HOST/"},
		{"http gzip bomb", hostile.HTTPResponse(hostile.GzipBomb(64 << 20)), "http://HOST/"},
		{"nntp endless article", hostile.NNTPEndlessArticle, "nntp://HOST/g/1"},
		{"nntp cut article", hostile.NNTPArticle("Subject: x\r\n\r\ncut"), "nntp://HOST/g/1"},
		{"ftp endless reply", hostile.HugeMultilineReply("220"), "ftp://HOST/f"},
		{"wais huge header", hostile.WAISHugeHeader, "wais://HOST/db/TEXT/id"},
		{"wais lying element", hostile.WAISLyingElement(), "wais://HOST/db?x"},
	}
	w, path := newWARC(t)
	ok := 0
	for _, c := range cases {
		s := hostile.Serve(t, c.handle)
		u := strings.Replace(c.url, "HOST", s.Addr, 1)
		_, err := captureURL(t, w, u, scheme.Config{}, &access.Options{MaxSize: 4 << 20, MaxTime: 3 * time.Second, ReadTimeout: time.Second})
		if err == nil {
			ok++
		}
		t.Logf("%s: %v", c.name, err)
	}
	recs := closeWARC(t, w, path) // strict: digests, lengths, fields
	pairs := 0
	for i := 1; i < len(recs); i += 2 {
		p, x := recs[i], recs[i+1]
		if x.header.GetId(gowarc.WarcConcurrentTo) != p.header.GetId(gowarc.WarcRecordID) {
			t.Errorf("records %d and %d are not a pair", i, i+1)
		}
		pairs++
	}
	if pairs != ok || (len(recs)-1)%2 != 0 {
		t.Errorf("%d records (%d pairs) for %d fetches that succeeded", len(recs), pairs, ok)
	}
	testio.KeepWARC(t, path, "capture-hostile.warc.gz")
}

// An article captured by its news:MESSAGE-ID URL is indexed once: its
// message-id entry is the entry of its URL (urlkit index and warcio.js's
// cdx-index then list the same records).
func TestIndexArticleByMessageIDOnce(t *testing.T) {
	s := hostile.Serve(t, hostile.NNTPArticle("Message-ID: <a1@example.org>\r\nSubject: x\r\n\r\nbody\r\n.\r\n"))
	w, path := newWARC(t)
	if _, err := captureURL(t, w, "news:a1@example.org", scheme.Config{NewsServer: s.Addr}, nil); err != nil {
		t.Fatal(err)
	}
	closeWARC(t, w, path)
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[string]int{}
	IndexFile(f, "t.warc.gz", func(e Entry) {
		if e.Mime == "message/rfc822" {
			keys[e.Key]++
		}
	}, func(err error) { t.Error(err) })
	if len(keys) != 1 || keys[SortKey("news:a1@example.org")] != 1 {
		t.Errorf("article entries by key: %v; want its news: key once", keys)
	}
}

// A Prospero file fetched through its AFTP access method (the Prospero
// protocol v5's ACCESS-METHOD): one resource record under the prospero
// URL, and one conversation holding the ARDP datagrams and then the ftp
// control lines.
func TestCaptureProsperoAFTP(t *testing.T) {
	ftp, err := fakeservers.FTP(map[string][]byte{"/pub/readme.txt": []byte("hello over ftp\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer ftp.Close()
	fh, fp, _ := net.SplitHostPort(ftp.Addr())
	method := "ATTRIBUTE OBJECT INTRINSIC ACCESS-METHOD SEQUENCE AFTP INTERNET-D " + fh + "(" + fp + ") ASCII /pub/readme.txt BINARY\n"
	d := &hostile.ProsperoDirectory{Size: 1250, Window: 16, Answer: func(req string) string {
		if strings.Contains(req, "\nDIRECTORY ") {
			return "FAILURE NOT-A-DIRECTORY\n"
		}
		return method
	}}
	s := hostile.ServeUDP(t, d.Handle)
	w, path := newWARC(t)
	target := "prospero://" + s.Addr + "//aftp"
	got, err := captureURL(t, w, target, scheme.Config{}, &access.Options{ReadTimeout: 2 * time.Second})
	if err != nil || string(got) != "hello over ftp\n" {
		t.Fatalf("%q %v", got, err)
	}
	recs := closeWARC(t, w, path)
	checkPair(t, recs, 1, target, OctetStream, "prospero", ProsperoConversationType, got)
	conv := string(recs[2].block)
	if !strings.HasPrefix(conv, "* UDP to ") || !strings.Contains(conv, "* connection to "+ftp.Addr()) || !strings.Contains(conv, "> RETR readme.txt\r\n") {
		t.Errorf("conversation:\n%q", conv)
	}
}
