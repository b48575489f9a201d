package access

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"
)

// splitArticle splits an article at the first empty line (RFC 1036).
func splitArticle(t *testing.T, a []byte) (head, body string) {
	t.Helper()
	h, b, ok := strings.Cut(string(a), "\r\n\r\n")
	if !ok {
		t.Fatalf("no header/body separator in %q", a)
	}
	return h + "\r\n", b
}

// The article as servers.sh offered it: its header lines are all in the
// server's copy (which adds Xref and may add others), and the body is the
// same, with the ".leading dot line" un-stuffed again (RFC 977 2.4.1).
func checkArticle(t *testing.T, got, sent []byte) {
	t.Helper()
	gh, gb := splitArticle(t, got)
	sh, sb := splitArticle(t, sent)
	for _, l := range strings.SplitAfter(sh, "\r\n") {
		if l != "" && !strings.Contains(gh, l) {
			t.Errorf("header line %q missing from\n%s", l, gh)
		}
	}
	if gb != sb {
		t.Errorf("body %q, want %q", gb, sb)
	}
}

// RFC 1738 3.7 (nntp://host/group/number): GROUP then ARTICLE n, after
// MODE READER, which innd needs before it hands the connection to nnrpd.
func TestNNTPRealArticleByNumber(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	var trace bytes.Buffer
	rc, err := FetchNNTP(context.Background(), &NNTPRequest{Addr: env["URLKIT_NNTP_ADDR"], Group: env["URLKIT_NNTP_GROUP"], Article: "1"}, &Options{Trace: &trace})
	got := fetchAll(t, rc, err)
	checkArticle(t, got, readFile(t, env["URLKIT_NNTP_DIR"]+"/article1"))
	tr := trace.String()
	for _, want := range []string{"C: MODE READER\nS: 200 ", "C: GROUP " + env["URLKIT_NNTP_GROUP"] + "\nS: 211 2 1 2 ", "C: ARTICLE 1\nS: 220 1 ", "C: QUIT\nS: 205"} {
		if !strings.Contains(tr, want) {
			t.Errorf("trace lacks %q:\n%s", want, tr)
		}
	}
}

// RFC 1738 3.6 (news:message-id): ARTICLE <message-id>, no group needed.
func TestNNTPRealArticleByMessageID(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	id := strings.Trim(env["URLKIT_NNTP_MSGID2"], "<>")
	rc, err := FetchNNTP(context.Background(), &NNTPRequest{Addr: env["URLKIT_NNTP_ADDR"], MessageID: id}, nil)
	checkArticle(t, fetchAll(t, rc, err), readFile(t, env["URLKIT_NNTP_DIR"]+"/article2"))
}

// RFC 1738 3.6 (news:*): LIST, the active file, which holds the test group.
func TestNNTPRealList(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	rc, err := FetchNNTP(context.Background(), &NNTPRequest{Addr: env["URLKIT_NNTP_ADDR"], ListGroups: true}, nil)
	got := string(fetchAll(t, rc, err))
	found := map[string]bool{}
	for _, l := range strings.Split(got, "\r\n") {
		if f := strings.Fields(l); len(f) == 4 {
			found[f[0]] = true
		}
	}
	for _, g := range []string{env["URLKIT_NNTP_GROUP"], env["URLKIT_NNTP_EMPTY_GROUP"]} {
		if !found[g] {
			t.Errorf("LIST lacks %s:\n%s", g, got)
		}
	}
}

// news:group: the overview of the group's two articles, then an empty
// group giving an empty listing.
func TestNNTPRealGroupOverview(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	rc, err := FetchNNTP(context.Background(), &NNTPRequest{Addr: env["URLKIT_NNTP_ADDR"], Group: env["URLKIT_NNTP_GROUP"]}, nil)
	got := string(fetchAll(t, rc, err))
	lines := strings.Split(strings.TrimSuffix(got, "\r\n"), "\r\n")
	if len(lines) != 2 {
		t.Fatalf("overview has %d lines:\n%s", len(lines), got)
	}
	for i, subj := range []string{"urlkit test one", "urlkit test two"} {
		f := strings.Split(lines[i], "\t")
		if len(f) < 5 || f[0] != fmt.Sprint(i+1) || f[1] != subj || f[4] != env[fmt.Sprintf("URLKIT_NNTP_MSGID%d", i+1)] {
			t.Errorf("overview line %q", lines[i])
		}
	}
	rc, err = FetchNNTP(context.Background(), &NNTPRequest{Addr: env["URLKIT_NNTP_ADDR"], Group: env["URLKIT_NNTP_EMPTY_GROUP"]}, nil)
	if got := fetchAll(t, rc, err); len(got) != 0 {
		t.Errorf("empty group gave %q", got)
	}
}

// Failures carry the step and the server's reply: 423 for a missing
// article number, 411 for a missing group, 430 for an unknown message-id
// (RFC 3977 6.1.1, 6.2.1).
func TestNNTPRealErrors(t *testing.T) {
	env := realServer(t, "URLKIT_NNTP_ADDR")
	addr := env["URLKIT_NNTP_ADDR"]
	for _, tc := range []struct {
		req  NNTPRequest
		step string
		code int
	}{
		{NNTPRequest{Group: env["URLKIT_NNTP_GROUP"], Article: "99"}, `ARTICLE "99"`, 423},
		{NNTPRequest{Group: "no.such.group", Article: "1"}, `GROUP "no.such.group"`, 411},
		{NNTPRequest{MessageID: "<none@urlkit.test>"}, `ARTICLE "<none@urlkit.test>"`, 430},
	} {
		tc.req.Addr = addr
		_, err := FetchNNTP(context.Background(), &tc.req, nil)
		var re *ReplyError
		if !errors.As(err, &re) || re.Step != tc.step || re.Code != tc.code || re.Text == "" {
			t.Errorf("%+v: err = %v, want %d from %s", tc.req, err, tc.code, tc.step)
		}
	}
}

// An RFC 977 server that does not know MODE READER (500) is used as is;
// the client reads the article with dot-stuffing undone.
func TestNNTPWithoutModeReader(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		fmt.Fprint(c, "201 old server\r\n")
		r := bufio.NewReader(c)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return
			}
			got = append(got, l)
			switch {
			case strings.HasPrefix(l, "MODE"):
				fmt.Fprint(c, "500 command not recognized\r\n")
			case strings.HasPrefix(l, "ARTICLE"):
				fmt.Fprint(c, "220 0 <a@b> article\r\nSubject: x\r\n\r\n..dot\r\nline\r\n.\r\n")
			case strings.HasPrefix(l, "QUIT"):
				fmt.Fprint(c, "205 bye\r\n")
				return
			}
		}
	}()
	rc, err := FetchNNTP(context.Background(), &NNTPRequest{Addr: ln.Addr().String(), MessageID: "a@b"}, nil)
	body := fetchAll(t, rc, err)
	<-done
	if string(body) != "Subject: x\r\n\r\n.dot\r\nline\r\n" {
		t.Errorf("body %q", body)
	}
	if strings.Join(got, "") != "MODE READER\r\nARTICLE <a@b>\r\nQUIT\r\n" {
		t.Errorf("server got %q", got)
	}
}

func TestNNTPRefusals(t *testing.T) {
	opts := &Options{Dial: func(context.Context, string, string) (net.Conn, error) {
		t.Error("dialed")
		return nil, errors.New("no")
	}}
	for _, req := range []NNTPRequest{
		{Group: "a\r\nPOST"},
		{MessageID: "x@y\nQUIT"},
		{Group: "g", Article: "1\x00"},
		{Group: "g h"},
	} {
		var ue *UnsafeArgumentError
		if _, err := FetchNNTP(context.Background(), &req, opts); !errors.As(err, &ue) {
			t.Errorf("%+v: err = %v", req, err)
		}
	}
	for _, req := range []NNTPRequest{{}, {Article: "1"}, {Group: "g", Article: "x"}} {
		if _, err := FetchNNTP(context.Background(), &req, opts); err == nil {
			t.Errorf("%+v accepted", req)
		}
	}
}

func TestNNTPReadTimeout(t *testing.T) {
	addr := silentListener(t)
	_, err := FetchNNTP(context.Background(), &NNTPRequest{Addr: addr, ListGroups: true}, &Options{ReadTimeout: 200 * time.Millisecond})
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() || !strings.Contains(err.Error(), "greeting") {
		t.Fatalf("err = %v, want a timeout in the greeting", err)
	}
}
