package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
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
	"github.com/urlkit/urlkit/internal/fakeservers"
	"github.com/urlkit/urlkit/internal/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// captureURL fetches s as `urlkit get --warc` does: the exchange and the
// resource recorded into w, the records written once the resource has
// been read whole. It returns the resource's bytes.
func captureURL(t *testing.T, w *Writer, s string, cfg scheme.Config, opts *access.Options) ([]byte, error) {
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
	r, err := access.Execute(context.Background(), p, opts)
	if err != nil {
		f.Abandon()
		return nil, err
	}
	r = f.Resource(r)
	b, err := io.ReadAll(r)
	r.Close()
	if err != nil {
		f.Abandon()
		return b, err
	}
	return b, f.Finish()
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
			!strings.HasPrefix(h.Get(gowarc.WarcBlockDigest), "sha1:") || !strings.HasPrefix(h.Get(gowarc.WarcPayloadDigest), "sha1:") {
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
	checkPair(t, recs, 1, "ftp://u:secret@"+s.Addr+"/x;type=i", OctetStream, "ftp", FTPConversationType, []byte("payload"))
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
