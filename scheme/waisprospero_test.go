package scheme

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// The WAIS plan is a list of typed messages (RFC 1625; the Z39.50-1988
// APDUs of ../shared/servers/wais/transcripts/demo-search-retrieve): the
// init, then a type-3 search with the URL's words, or the retrieval of a
// document by its document-id in chunks.
func TestWAISPlanMessages(t *testing.T) {
	init := WAISInitAPDU{PreferredMessageSize: WAISMessageSize, MaximumRecordSize: WAISMessageSize, ImplementationName: "urlkit"}
	for _, c := range []struct {
		in   string
		form string
		last WAISMessage
	}{
		// RFC 1738 3.9, second form: a particular search; "+" is a space
		// (RFC 1630).
		{"wais://quake.think.com:210/wais-discussion-archives?lynch+kahle", WAISSearch,
			WAISSearchAPDU{Database: "wais-discussion-archives", SeedWords: "lynch kahle", MaxDocuments: WAISMaxDocuments}},
		// First form: the database; the words are the user's to give.
		{"wais://h.dom/db", WAISDatabase, WAISSearchAPDU{Database: "db", AskUser: true, MaxDocuments: WAISMaxDocuments}},
		// Third form: the wpath is the document-id, percent-encoded
		// (RFC 1738 3.9: "encoded as necessary using the method described
		// in Section 2.2"); here the DocumentID of the transcript's
		// wais.txt, shortened.
		{"wais://h.dom:2100/demo/TEXT/%01%07vm%3A8210%03%290%20191%20%2Ftmp%2Fw.txt%07%01%00", WAISDocument,
			WAISRetrieval{Database: "demo", DocID: "\x01\x07vm:8210\x03)0 191 /tmp/w.txt\x07\x01\x00", Type: "TEXT", Chunk: WAISChunk}},
	} {
		p := mustPlan(t, c.in, Config{}).(*WAISPlan)
		if p.Form != c.form || len(p.Messages) != 2 || p.Messages[0] != init || p.Messages[1] != c.last {
			t.Errorf("%s: form %s, messages %#v", c.in, p.Form, p.Messages)
		}
		// Every message's text is in the plan's steps, after the connection.
		steps := StepTexts(p)
		if len(steps) != 3 || !strings.HasPrefix(steps[0], "connect to "+p.Addr) || steps[1] != init.Text() || steps[2] != c.last.Text() {
			t.Errorf("%s: steps %q", c.in, steps)
		}
	}
	// The text derives from the fields: a changed field changes it.
	a := WAISSearchAPDU{Database: "db", SeedWords: "x", MaxDocuments: 40}
	b := a
	b.SeedWords = "y"
	if a.Text() == b.Text() || !strings.Contains(b.Text(), `SeedWords "y"`) {
		t.Errorf("texts %q %q", a.Text(), b.Text())
	}
	if r := (WAISRetrieval{Database: "d", DocID: "\x01\x02ab", Type: "TEXT", Chunk: 10}).Text(); !strings.Contains(r, `DocumentID "\x01\x02ab" (4 bytes)`) || !strings.Contains(r, "bytes [0, 10)") {
		t.Errorf("retrieval text %q", r)
	}
}

// RFC 1630 WAIS: the wpath's fields "digits = value ;" are the document-id's
// elements, each field number its tag.
func TestWAISDocIDOfFields(t *testing.T) {
	got := DocIDOfFields([]WAISField{{"1", "vm:8210"}, {"3", "0 191 /x"}, {"200", "z"}})
	want := "\x01\x07vm:8210\x03\x080 191 /x\x81\x48\x01z" // 200 = 0x81 0x48 compressed
	if got != want {
		t.Errorf("DocIDOfFields = %q, want %q", got, want)
	}
}

// A hit's URL: the search URL's database, the type and the document-id
// percent-encoded where RFC 1738 5's wpath = *uchar requires, so that the
// URL parses back to the same bytes.
func TestWAISDocumentURL(t *testing.T) {
	id := []byte("\x01\x07vm:8210\x02 /tmp/idx/demo\x03)0 191 /tmp/d/w;a=b.txt\x07\x01\x00")
	u := WAISDocumentURL("wais://127.0.0.1:8210/demo", "TEXT", id)
	if strings.ContainsAny(u[len("wais://127.0.0.1:8210/demo/TEXT/"):], ":/;= ") {
		t.Errorf("wpath not encoded: %s", u)
	}
	v := mustView(t, u).(*WAIS)
	if v.Form != WAISDocument || v.WPath != string(id) || v.WType != "TEXT" || v.Database != "demo" || v.Port != 8210 {
		t.Errorf("%s parses to %+v", u, v)
	}
}

// The Prospero plan: the requests of the transcripts
// (../shared/servers/prospero/transcripts/demo-session, demo-contents),
// each the lines one ARDP message carries.
func TestProsperoPlanRequests(t *testing.T) {
	// RFC 1738 3.11: "<URL:prospero://host.dom//pros/name> designates a
	// <hsoname> of "/pros/name"".
	p := mustPlan(t, "prospero://host.dom//pros/name", Config{Email: "joe@example.org"}).(*ProsperoPlan)
	if p.Addr != "host.dom:1525" || p.HSOName != "/pros/name" || len(p.Requests) != 4 {
		t.Fatalf("plan %+v", p)
	}
	want := []struct{ when, msg string }{
		{ProsperoFirst, "VERSION 5\nAUTHENTICATE '' UNAUTHENTICATED joe\nDIRECTORY ASCII '/pros/name'\nLIST ATTRIBUTES COMPONENTS\n"},
		{ProsperoNotADirectory, "VERSION 5\nAUTHENTICATE '' UNAUTHENTICATED joe\nGET-OBJECT-INFO #ALL ASCII '/pros/name' 0\n"},
		{ProsperoContentsMethod, "VERSION 5\nAUTHENTICATE '' UNAUTHENTICATED joe\nGET-OBJECT-INFO CONTENTS ASCII '/pros/name' 0\n"},
		// as pstatus sends it (transcripts/prospero-status-vls): STATUS alone
		{ProsperoNotAuthorized, "STATUS\n"},
	}
	for i, w := range want {
		if r := p.Requests[i]; r.When != w.when || r.Message() != w.msg {
			t.Errorf("request %d: %s %q, want %s %q", i, r.When, r.Message(), w.when, w.msg)
		}
	}
	// plan prints each line as sent.
	steps := strings.Join(StepTexts(p), "\n")
	for _, l := range []string{"\nDIRECTORY ASCII '/pros/name'\n", "\nGET-OBJECT-INFO CONTENTS ASCII '/pros/name' 0"} {
		if !strings.Contains(steps, l) {
			t.Errorf("steps lack %q:\n%s", l, steps)
		}
	}
	// No e-mail address: the principal is "anonymous".
	if p := mustPlan(t, "prospero://h/x", Config{}).(*ProsperoPlan); !strings.Contains(p.Requests[0].Message(), "UNAUTHENTICATED anonymous\n") {
		t.Errorf("principal: %q", p.Requests[0].Message())
	}
}

// RFC 1738 3.11: ";field=value" identifies the target. OBJECT-VERSION is
// the commands' object-version token; other fields are SELECT lines (the
// Prospero protocol's select-lines after DIRECTORY and GET-OBJECT-INFO).
func TestProsperoPlanFields(t *testing.T) {
	p := mustPlan(t, "prospero://h.dom/a%20b's;OBJECT-VERSION=3;x=y%20z", Config{}).(*ProsperoPlan)
	if got := p.Requests[0].Message(); !strings.Contains(got, "DIRECTORY ASCII 'a b''s' 3\nSELECT LINK FIELD x SEQUENCE 'y z'\nLIST") {
		t.Errorf("first request %q", got)
	}
	if got := p.Requests[1].Message(); !strings.Contains(got, "GET-OBJECT-INFO #ALL ASCII 'a b''s' 3\nSELECT LINK FIELD x SEQUENCE 'y z'\n") {
		t.Errorf("second request %q", got)
	}
	for _, in := range []string{
		"prospero://h.dom/a;OBJECT-VERSION=x", // not a number
		"prospero://h.dom/a%0AVERSION",        // a line feed in the name (RFC 1738 6)
		"prospero://h.dom/a;f=%0D",            // a carriage return in a field
	} {
		u, err := urlkit.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := PlanOf(u, Config{}); err == nil {
			t.Errorf("%s: planned", in)
		}
	}
}

// ProsperoQuote: the null string and tokens with spaces, quotes, slashes or
// line ends are quoted, quotes doubled (Prospero protocol v5, "Spaces,
// quoting, and line-feeds").
func TestProsperoQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":           "''",
		"COMPONENTS": "COMPONENTS",
		"a b":        "'a b'",
		"it's":       "'it''s'",
		"/tmp/x":     "'/tmp/x'",
		"a\tb":       "'a\tb'",
	} {
		if got := ProsperoQuote(in); got != want {
			t.Errorf("ProsperoQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// plan --json: each message and command says what it is, by its op and
// its fields (keys listed in the package documentation, TestJSONSchema).
func TestWAISProsperoPlanJSON(t *testing.T) {
	b, err := json.Marshal(mustPlan(t, "wais://h/db?w", Config{}))
	if err != nil || !strings.Contains(string(b), `"steps":[{"op":"connect","addr":"h:210",`) || !strings.Contains(string(b), `{"op":"init","preferred_message_size":100000,`) ||
		!strings.Contains(string(b), `{"op":"search","database":"db","seed_words":"w","max_documents":40,`) {
		t.Errorf("wais JSON %s %v", b, err)
	}
	b, err = json.Marshal(mustPlan(t, "prospero://h//a", Config{}))
	if err != nil || !strings.Contains(string(b), `{"op":"directory","hsoname_type":"ASCII","hsoname":"/a","text":"DIRECTORY ASCII '/a'"}`) || !strings.Contains(string(b), `"when":"not-a-directory"`) {
		t.Errorf("prospero JSON %s %v", b, err)
	}
}
