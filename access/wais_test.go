package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/internal/testkit/testservers"
	"github.com/urlkit/urlkit/scheme"
)

// Sources of the WAIS tests: RFC 1625 (WAIS over Z39.50-1988: the init,
// the type-3 search with seed words, the retrieval as a type-1 query of
// DocID "un"/"re", type "wt"/"re", start "wb"/"ro", end "wb"/"rl"); RFC
// 1738 3.9 (the three URL forms); the WAIS Interface Protocol Prototype
// Functional Specification 1.5 (Thinking Machines, 1990: the element tags,
// the header and text groups); and the captures of freeWAIS-sf 2.2.10 and
// its client waissearch in ../shared/servers/wais/transcripts, from which
// the byte layout below is checked.

// waisMsg is one message of a capture.
type waisMsg struct {
	fromServer bool
	body       []byte
}

// waisTranscript reassembles the WAIS messages of a capture.
func waisTranscript(t *testing.T, name string) []waisMsg {
	t.Helper()
	ps, err := testservers.ReadPcap(testservers.Transcript(t, "wais/transcripts/"+name))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatal("empty capture")
	}
	server := ps[0].DstPort
	var runs []waisMsg
	for _, p := range ps {
		s := p.SrcPort == server
		if len(runs) > 0 && runs[len(runs)-1].fromServer == s {
			runs[len(runs)-1].body = append(runs[len(runs)-1].body, p.Data...)
			continue
		}
		runs = append(runs, waisMsg{s, append([]byte(nil), p.Data...)})
	}
	var out []waisMsg
	for _, r := range runs {
		for b := r.body; len(b) >= waisHeaderLen; {
			n, err := parseWAISHeader(b[:waisHeaderLen])
			if err != nil || int64(len(b)) < waisHeaderLen+n {
				t.Fatalf("%s: bad message framing: %v", name, err)
			}
			out = append(out, waisMsg{r.fromServer, b[waisHeaderLen : waisHeaderLen+n]})
			b = b[waisHeaderLen+n:]
		}
	}
	return out
}

// The capture of `waissearch -d demo retrieval` then document 2: the
// server's messages decode to what the annotated dump says, and the
// search and the retrieval this client encodes are byte for byte the ones
// waissearch sent (plan == wire, checked against a real client).
func TestWAISTranscript(t *testing.T) {
	msgs := waisTranscript(t, "demo-search-retrieve.pcap")
	if len(msgs) != 6 {
		t.Fatalf("%d messages, want 6", len(msgs))
	}
	init, err := decodeWAIS(msgs[1].body)
	if err != nil || init.Type != waisInitResponseAPDU || !init.Result || init.PreferredMessageSize != 100000 || init.MaximumRecordSize != 100000 {
		t.Fatalf("initResponse %+v %v", init, err)
	}
	hits, err := decodeWAIS(msgs[3].body)
	if err != nil || hits.Type != waisSearchResponseAPDU || len(hits.Headers) != 2 {
		t.Fatalf("searchResponse %+v %v", hits, err)
	}
	for i, want := range []struct {
		score, length, lines int64
		headline             string
	}{{147, 141, 3, "The Internet Gopher"}, {122, 191, 4, "Wide Area Information Servers"}} {
		h := hits.Headers[i]
		if h.Score != want.score || h.Length != want.length || h.Lines != want.lines || h.Headline != want.headline || len(h.Types) != 1 || h.Types[0] != "TEXT" {
			t.Errorf("hit %d: %+v", i+1, h)
		}
	}
	docID := hits.Headers[1].DocID
	if !bytes.Contains(docID, []byte("0 191 /tmp/urlkit-wais-demo/docs/wais.txt")) {
		t.Errorf("DocumentID %q", docID)
	}
	text, err := decodeWAIS(msgs[5].body)
	if err != nil || len(text.Texts) != 1 {
		t.Fatalf("retrieval response %+v %v", text, err)
	}
	want, err := os.ReadFile(testservers.Transcript(t, "wais/demo/wais.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(text.Texts[0], want) {
		t.Errorf("DocumentText %q, want the file %q", text.Texts[0], want)
	}

	// What this client sends for the same search and the same retrieval.
	search := scheme.WAISSearchAPDU{Database: "demo", SeedWords: "retrieval", MaxDocuments: scheme.WAISMaxDocuments}
	z := searchZ(30, 5000, 30, "", search.Database, "3")
	var u []byte
	u = appendString(u, tagSeedWords, search.SeedWords)
	u = appendNum(u, tagDateFactor, 1)
	u = appendNum(u, tagMaxDocuments, search.MaxDocuments)
	body, _ := waisBody(z, appendElem(nil, tagUserInformation, u))
	if !bytes.Equal(body, msgs[2].body) {
		t.Errorf("search APDU\n got %x\nwant %x", body, msgs[2].body)
	}
	got, err := retrievalBody(scheme.WAISRetrieval{Database: "demo", DocID: string(docID), Type: "TEXT"}, 0, 191)
	if err != nil || !bytes.Equal(got, msgs[4].body) {
		t.Errorf("retrieval APDU %v\n got %x\nwant %x", err, got, msgs[4].body)
	}
	// The init differs (waissearch sends its user and host names, which
	// this client keeps to itself) but is read the same way.
	if msgs[0].body[2] != waisInitAPDU {
		t.Errorf("init APDU type %d", msgs[0].body[2])
	}
}

// A database the server does not have: one diagnostic record (tag 28, its
// own 2-byte length format), code S1 (demo-nosuchdb transcript).
func TestWAISTranscriptDiagnostic(t *testing.T) {
	msgs := waisTranscript(t, "demo-nosuchdb.pcap")
	r, err := decodeWAIS(msgs[3].body)
	if err != nil || len(r.Diags) != 1 || r.Diags[0].Code != "S1" || !strings.HasPrefix(r.Diags[0].Text, "The following database is not available: ") {
		t.Fatalf("%+v %v", r, err)
	}
	e := diagError("search", r.Diags)
	if !strings.Contains(e.Error(), "diagnostic S1: The following database is not available") {
		t.Errorf("error %q", e)
	}
}

// Malformed bodies: each is an error naming what was wrong and the byte
// offset, never a panic.
func TestWAISDecodeErrors(t *testing.T) {
	for _, c := range []struct {
		body string
		off  int
		says string
	}{
		{"", 0, "no Z39.50 part"},
		{"\x00\x10\x17", 0, "announces 16 bytes"},
		{"\x00\x01\x14", 2, "APDU type 20"},
		{"\x00\x03\x17\x01\x00", 4, "ResultCount field"},
		{"\x00\x0b\x17\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x63\x04\x7b\x09ab", 15, "element 123 announces 9 bytes"},
		{"\x00\x0b\x17\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x63\x04\x81\x16\x00\x00", 15, "without a DocumentID"},
		{"\x00\x0b\x17\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x63\x05\xff\xff\xff\xff\x01", 15, "longer than 4 bytes"},
		{"\x00\x0b\x17\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x1c\x00\x09S1ab", 14, "tag 28"},
		{"\x00\x0b\x17\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x63\x07\x81\x16\x04\x74\x00\x76\x00", 20, "Score (tag 118) is a number of 0 bytes"},
	} {
		_, err := decodeWAIS([]byte(c.body))
		var fe *WAISFormatError
		if !errors.As(err, &fe) || fe.Offset != c.off || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q: %v, want offset %d saying %q", c.body, err, c.off, c.says)
		}
	}
	if _, err := parseWAISHeader([]byte("00000000x1z2wais        0")); err == nil || !strings.Contains(err.Error(), "10 decimal digits") {
		t.Errorf("header: %v", err)
	}
}

// FuzzWAISDecode: any body decodes or is a *WAISFormatError, without panic,
// and what decodes decodes again the same.
func FuzzWAISDecode(f *testing.F) {
	for _, s := range []string{
		"\x00\x12\x15\x01\x03\x01\x80\x04\x01\x80\x05\x03\x01\x86\xa0\x06\x03\x01\x86\xa0",
		"\x00\x0e\x17\x01\x00\x00\x00\x00\x00\x01\x00\x00\x00\x1b\x01\x00\x63\x06\x81\x16\x03\x74\x01\x00",
		string(hostile.WAISDocumentResponse([]byte("text"))),
		"\x00\x0e\x17\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x1b\x01\x00\x63\x0a\x1c\x00\x05S1ab\x00\x1d",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := decodeWAIS(body)
		if err != nil {
			var fe *WAISFormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > len(body) {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		q, err := decodeWAIS(body)
		if err != nil || len(q.Headers) != len(p.Headers) || len(q.Texts) != len(p.Texts) || len(q.Diags) != len(p.Diags) {
			t.Fatalf("second decode %+v %v", q, err)
		}
	})
}

// ---- against freeWAIS-sf ------------------------------------------------

// waissearchHit is a line of waissearch's output:
// "   2: Score:  122, lines:   4 'Wide Area Information Servers'".
var waissearchHit = regexp.MustCompile(`(?m)^ *(\d+): Score: +(\d+), lines: +(\d+) '(.*)'$`)

// waissearch runs freeWAIS-sf's own client (../shared/servers/wais/client.sh)
// with stdin as its answers.
func waissearch(t *testing.T, env map[string]string, stdin string, args ...string) string {
	t.Helper()
	_, port, _ := net.SplitHostPort(env["URLKIT_WAIS_ADDR"])
	cmd := exec.Command("bash", append([]string{filepath.Join(testservers.ServersDir(), "wais", "client.sh"), env["URLKIT_WAIS_PREFIX"], port}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("waissearch %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// readHits runs a search URL and reads its listing.
func readHits(t *testing.T, in string, opts *Options) []WAISHit {
	t.Helper()
	b := mustGet(t, in, scheme.Config{}, opts)
	hits, diags, err := ReadWAISHits(bytes.NewReader(b))
	if err != nil || len(diags) != 0 {
		t.Fatalf("%s: %v %q\n%s", in, err, diags, b)
	}
	return hits
}

// get of a search lists what waissearch lists, in the same order, with the
// same scores, line counts and headlines; each hit's URL retrieves the
// document's bytes exactly (the demo files, RFC 1738 3.9's third form).
func TestWAISRealSearchAndRetrieve(t *testing.T) {
	env := testservers.Require(t, "URLKIT_WAIS_ADDR")
	addr := env["URLKIT_WAIS_ADDR"]
	for _, words := range []string{"retrieval", "Neuman", "Gopher"} {
		start := time.Now()
		hits := readHits(t, "wais://"+addr+"/demo?"+words, nil)
		t.Logf("search %q: %d hits in %v", words, len(hits), time.Since(start))
		oracle := waissearchHit.FindAllStringSubmatch(waissearch(t, env, "q\nq\n", "-d", "demo", words), -1)
		if len(oracle) != len(hits) || len(hits) == 0 {
			t.Fatalf("%q: %d hits, waissearch lists %d", words, len(hits), len(oracle))
		}
		for i, o := range oracle {
			h := hits[i]
			if strconv.FormatInt(h.Score, 10) != o[2] || strconv.FormatInt(h.Lines, 10) != o[3] || h.Headline != o[4] || h.Type != "TEXT" {
				t.Errorf("%q hit %d: %+v; waissearch: %q", words, i+1, h, o[0])
			}
			start := time.Now()
			doc := mustGet(t, h.URL, scheme.Config{}, nil)
			t.Logf("retrieve %q: %d bytes in %v", h.Headline, len(doc), time.Since(start))
			name := map[string]string{"The Internet Gopher": "gopher.txt", "Wide Area Information Servers": "wais.txt", "The Prospero Directory Service": "prospero.txt"}[h.Headline]
			want := readFile(t, filepath.Join(env["URLKIT_WAIS_DOCS"], name))
			if !bytes.Equal(doc, want) || int64(len(want)) != h.Size {
				t.Errorf("%s: %d bytes, want the %d of %s (size listed %d)", h.URL, len(doc), len(want), name, h.Size)
			}
			// waissearch shows the same text for the same document.
			shown := waissearch(t, env, fmt.Sprintf("%d\nq\nq\n", i+1), "-d", "demo", words)
			if !strings.Contains(shown, string(want[:len(want)-1])) {
				t.Errorf("waissearch shows another text for document %d:\n%s", i+1, shown)
			}
		}
	}
}

// Documents larger than a chunk come in chunks of 65536 bytes, bytes
// exactly: one byte short of a chunk, exactly two chunks (the third
// request comes back empty with "out of range"), and 150001 bytes.
func TestWAISRealChunks(t *testing.T) {
	env := testservers.Require(t, "URLKIT_WAIS_ADDR")
	hits := readHits(t, "wais://"+env["URLKIT_WAIS_ADDR"]+"/big?line", nil)
	if len(hits) != 3 {
		t.Fatalf("%d hits in database big", len(hits))
	}
	for _, h := range hits {
		name := map[string]string{"One byte short of a chunk": "one.txt", "Exactly two chunks": "exact.txt", "One hundred fifty thousand and one": "odd.txt"}[h.Headline]
		want := readFile(t, filepath.Join(env["URLKIT_WAIS_BIGDOCS"], name))
		var trace bytes.Buffer
		start := time.Now()
		doc := mustGet(t, h.URL, scheme.Config{}, &Options{Trace: &trace})
		el := time.Since(start)
		chunks := strings.Count(trace.String(), "> searchAPDU")
		t.Logf("%s: %d bytes in %d retrievals, %v", name, len(doc), chunks, el)
		if !bytes.Equal(doc, want) || int64(len(want)) != h.Size {
			t.Errorf("%s: %d bytes, want %d", name, len(doc), len(want))
		}
		if wantChunks := len(want)/scheme.WAISChunk + 1; chunks != wantChunks {
			t.Errorf("%s: %d retrievals, want %d:\n%s", name, chunks, wantChunks, trace.String())
		}
	}
	// --max-size stops a document after that many bytes.
	_, _, err := get(t, hits[0].URL, scheme.Config{}, &Options{MaxSize: 100})
	wantLimit(t, err, "max-size", `retrieve "TEXT" document`)
}

// get -v: each message sent and received, as the plan names them.
func TestWAISRealTrace(t *testing.T) {
	env := testservers.Require(t, "URLKIT_WAIS_ADDR")
	var trace bytes.Buffer
	mustGet(t, "wais://"+env["URLKIT_WAIS_ADDR"]+"/demo?retrieval", scheme.Config{}, &Options{Trace: &trace})
	for _, want := range []string{
		"> initAPDU (", "< initResponseAPDU (", "Result accept",
		`> searchAPDU (43 bytes): DatabaseNames "demo", QueryType 3, SeedWords "retrieval", MaxDocumentsRetrieved 40`,
		"< searchResponseAPDU (", "NumberOfRecordsReturned 2",
	} {
		if !strings.Contains(trace.String(), want) {
			t.Errorf("trace lacks %q:\n%s", want, trace.String())
		}
	}
}

// A database the server does not have: its diagnostic, as an error; the
// database form (no words) is refused before connecting.
func TestWAISRealErrors(t *testing.T) {
	env := testservers.Require(t, "URLKIT_WAIS_ADDR")
	_, _, err := get(t, "wais://"+env["URLKIT_WAIS_ADDR"]+"/nosuchdb?x", scheme.Config{}, nil)
	var re *ReplyError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "diagnostic S1: The following database is not available") {
		t.Errorf("nosuchdb: %v", err)
	}
	_, _, err = get(t, "wais://"+env["URLKIT_WAIS_ADDR"]+"/demo", scheme.Config{}, nil)
	if !errors.Is(err, ErrWAISNoWords) {
		t.Errorf("database form: %v", err)
	}
	// A document-id the server does not know.
	_, _, err = get(t, "wais://"+env["URLKIT_WAIS_ADDR"]+"/demo/TEXT/%01%02xy", scheme.Config{}, nil)
	if err == nil {
		t.Errorf("unknown document-id retrieved")
	}
}

// ---- hostile servers ---------------------------------------------------------

// Each misbehaving WAIS server is stopped at a bound that names the limit
// or the fault and the step, in little memory.
func TestHostileWAIS(t *testing.T) {
	for _, c := range []struct {
		name   string
		handle func(net.Conn)
		url    string
		check  func(t *testing.T, err error)
	}{
		{"a header announcing 9,999,999,999 bytes, then bytes without end", hostile.WAISHugeHeader, "wais://%s/db?x",
			func(t *testing.T, err error) { wantLimit(t, err, "reply size", "init") }},
		{"a header announcing 1000 bytes, 10 sent", hostile.WAISShortBody, "wais://%s/db?x",
			func(t *testing.T, err error) {
				if err == nil || !strings.Contains(err.Error(), "10 of the 1000 bytes") {
					t.Errorf("err = %v", err)
				}
			}},
		{"an element announcing 268 MB inside a short message", hostile.WAISLyingElement(), "wais://%s/db?x",
			func(t *testing.T, err error) {
				var fe *WAISFormatError
				if !errors.As(err, &fe) || fe.Offset != 18 || !strings.Contains(err.Error(), `search "x"`) {
					t.Errorf("err = %v", err)
				}
			}},
		{"garbage answers", hostile.WAISGarbage(1), "wais://%s/db?x",
			func(t *testing.T, err error) {
				var fe *WAISFormatError
				if !errors.As(err, &fe) {
					t.Errorf("err = %v", err)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := serve(t, c.handle)
			var err error
			peak := peakHeap(func() { _, _, err = get(t, fmt.Sprintf(c.url, s.Addr), scheme.Config{}, nil) })
			c.check(t, err)
			t.Logf("%v; peak heap %d KiB", err, peak>>10)
			if peak > memBudget {
				t.Errorf("peak heap %d bytes", peak)
			}
		})
	}
}

// Garbage of every kind (random bodies; well-framed responses holding
// random elements): each answer is a format error or, when the elements
// happen to fit, a listing without hits; never a panic.
func TestHostileWAISGarbageSeeds(t *testing.T) {
	errs := 0
	for seed := int64(0); seed < 60; seed++ {
		s := serve(t, hostile.WAISGarbage(seed*1000))
		b, _, err := get(t, "wais://"+s.Addr+"/db?x", scheme.Config{}, nil)
		var fe *WAISFormatError
		switch {
		case errors.As(err, &fe):
			errs++
		case err == nil:
			if hits, _, err := ReadWAISHits(bytes.NewReader(b)); err != nil || len(hits) != 0 {
				t.Errorf("seed %d: %d hits from garbage, %v", seed, len(hits), err)
			}
		default:
			t.Errorf("seed %d: %v", seed, err)
		}
	}
	t.Logf("%d of 60 garbage answers were format errors", errs)
}

// A document that never ends (every chunk full): streamed in constant
// memory, stopped by --max-size naming the retrieval; --max-time stops a
// server that drips.
func TestHostileWAISEndlessDocument(t *testing.T) {
	s := serve(t, hostile.WAISEndlessDocument())
	var err error
	var n int64
	peak := peakHeap(func() {
		var r *Resource
		r, err = Execute(context.Background(), planFor(t, "wais://"+s.Addr+"/db/TEXT/id", scheme.Config{}), &Options{MaxSize: 48 << 20})
		if err == nil {
			n, err = io.Copy(io.Discard, r)
			r.Close()
		}
	})
	wantLimit(t, err, "max-size", `retrieve "TEXT" document`)
	t.Logf("%d MiB streamed, peak heap %d KiB", n>>20, peak>>10)
	if peak > memBudget || n != 48<<20 {
		t.Errorf("peak heap %d bytes after %d bytes", peak, n)
	}

	d := serve(t, hostile.WAISDrip(100*time.Millisecond))
	start := time.Now()
	_, _, err = get(t, "wais://"+d.Addr+"/db?x", scheme.Config{}, &Options{MaxTime: 500 * time.Millisecond})
	wantLimit(t, err, "max-time", "init")
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("stopped after %v", el)
	}
}

// A retrieval is refused, for the database form, before anything is
// dialled; and every connection goes through Options.Dial (the gateway's
// policy) as TCP.
func TestWAISDialPolicy(t *testing.T) {
	var networks []string
	deny := errors.New("refused by policy")
	opts := &Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		networks = append(networks, network+" "+addr)
		return nil, deny
	}}
	_, _, err := get(t, "wais://192.0.2.1:2100/db", scheme.Config{}, opts)
	if !errors.Is(err, ErrWAISNoWords) || len(networks) != 0 {
		t.Errorf("database form: %v, dialled %q", err, networks)
	}
	_, _, err = get(t, "wais://192.0.2.1:2100/db?x", scheme.Config{}, opts)
	if !errors.Is(err, deny) || len(networks) != 1 || networks[0] != "tcp 192.0.2.1:2100" {
		t.Errorf("search: %v, dialled %q", err, networks)
	}
}
