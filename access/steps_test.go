package access

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/urlkit/urlkit/internal/testkit/hostile"
	"github.com/urlkit/urlkit/scheme"
)

// The access package executes a plan's typed steps and reads none of their
// text: these tests give it plans whose text would mislead a reader of
// lines, and plans made by hand whose fields alone decide what is sent.

// A password from the URL that reads "<ask the user>" (RFC 1738 3.2.1: the
// URL's password, decoded) is sent as it is: no prompt is asked. When the
// prompt was a marker line inside the plan, this password made the client
// ask the user instead.
func TestFTPPasswordLikeThePromptMarker(t *testing.T) {
	s := serve(t, (&hostile.FTP{Files: map[string][]byte{"x": []byte("payload")}}).Serve)
	opts := &Options{PasswordPrompt: func(context.Context) (string, error) {
		t.Error("the password prompt was asked for a password the URL gives")
		return "", errors.New("no")
	}}
	got := mustGet(t, "ftp://u:%3Cask%20the%20user%3E@"+s.Addr+"/x;type=i", scheme.Config{}, opts)
	if string(got) != "payload" {
		t.Errorf("got %q", got)
	}
	if !strings.Contains(s.Received(), "\r\nPASS <ask the user>\r\n") {
		t.Errorf("server received %q", s.Received())
	}
}

// ftpPlanBy returns a plan for addr whose commands are cmds, then RETR x
// and QUIT.
func ftpPlanBy(addr string, cmds ...scheme.FTPCommand) *scheme.FTPPlan {
	cmds = append(cmds, scheme.FTPCommand{Verb: scheme.FTPRetr, Arg: "x"}, scheme.FTPCommand{Verb: scheme.FTPQuit})
	return &scheme.FTPPlan{Addr: addr, Name: "x", Type: 'i', Commands: cmds}
}

// The fields of a hand-made plan decide what is sent: a password asked
// (scheme.PassAsk) is the prompt's answer; EPSV without Else is not
// followed by PASV when refused; PASV alone is sent alone.
func TestFTPExecutesTypedCommands(t *testing.T) {
	user := scheme.FTPCommand{Verb: scheme.FTPUser, Arg: "u"}
	ask := scheme.FTPCommand{Verb: scheme.FTPPass, Pass: scheme.PassAsk}
	t.Run("asked password", func(t *testing.T) {
		s := serve(t, (&hostile.FTP{Files: map[string][]byte{"x": []byte("p")}}).Serve)
		opts := &Options{PasswordPrompt: func(context.Context) (string, error) { return "typed in", nil }}
		r, err := Execute(context.Background(), ftpPlanBy(s.Addr, user, ask, scheme.FTPCommand{Verb: scheme.FTPEpsv, Else: [2]scheme.FTPVerb{scheme.FTPPasv}}), opts)
		if err != nil {
			t.Fatal(err)
		}
		readAllClose(t, r)
		if want := "USER u\r\nPASS typed in\r\nEPSV\r\nRETR x\r\nQUIT\r\n"; s.Received() != want {
			t.Errorf("server received %q, want %q", s.Received(), want)
		}
	})
	t.Run("EPSV without Else", func(t *testing.T) {
		s := serve(t, (&hostile.FTP{Files: map[string][]byte{"x": []byte("p")}, NoEPSV: true}).Serve)
		_, err := Execute(context.Background(), ftpPlanBy(s.Addr, user, scheme.FTPCommand{Verb: scheme.FTPPass, Arg: "pw", Pass: scheme.PassURL}, scheme.FTPCommand{Verb: scheme.FTPEpsv}), nil)
		var re *ReplyError
		if !errors.As(err, &re) || re.Step != "EPSV" || re.Code != 500 {
			t.Fatalf("err = %v, want EPSV refused", err)
		}
		if strings.Contains(s.Received(), "PASV") {
			t.Errorf("server received %q: PASV without a plan asking for it", s.Received())
		}
	})
	t.Run("PASV alone", func(t *testing.T) {
		s := serve(t, (&hostile.FTP{Files: map[string][]byte{"x": []byte("p")}}).Serve)
		r, err := Execute(context.Background(), ftpPlanBy(s.Addr, user, scheme.FTPCommand{Verb: scheme.FTPPass, Arg: "pw", Pass: scheme.PassURL}, scheme.FTPCommand{Verb: scheme.FTPPasv}), nil)
		if err != nil {
			t.Fatal(err)
		}
		readAllClose(t, r)
		if want := "USER u\r\nPASS pw\r\nPASV\r\nRETR x\r\nQUIT\r\n"; s.Received() != want {
			t.Errorf("server received %q, want %q", s.Received(), want)
		}
	})
	t.Run("refused before connecting", func(t *testing.T) {
		for _, p := range []*scheme.FTPPlan{
			ftpPlanBy("127.0.0.1:1", user, scheme.FTPCommand{Verb: scheme.FTPCwd, Arg: "a\r\nDELE b"}),
			{Addr: "127.0.0.1:1", Commands: []scheme.FTPCommand{user, {Verb: scheme.FTPQuit}}},
			ftpPlanBy("127.0.0.1:1", user, scheme.FTPCommand{Verb: 99}),
		} {
			if _, err := Execute(context.Background(), p, &Options{Dial: func(context.Context, string, string) (net.Conn, error) {
				t.Errorf("%q: dialled", redactedLines(p))
				return nil, errors.New("no")
			}}); err == nil {
				t.Errorf("%q: no error", redactedLines(p))
			}
		}
	})
}

// An NNTP OVER without Else is not followed by XOVER when the server does
// not know it: the plan says what is sent.
func TestNNTPExecutesTypedCommands(t *testing.T) {
	s := serve(t, oldNNTPServer(false))
	p := &scheme.NNTPPlan{Addr: s.Addr, Group: "g", Commands: []scheme.NNTPCommand{
		{Verb: scheme.NNTPGroup, Arg: "g"}, {Verb: scheme.NNTPOver, Arg: "1-"}, {Verb: scheme.NNTPQuit}}}
	_, err := Execute(context.Background(), p, nil)
	var re *ReplyError
	if !errors.As(err, &re) || re.Step != "OVER 1-" || re.Code != 500 {
		t.Fatalf("err = %v, want OVER refused", err)
	}
	if strings.Contains(s.Received(), "XOVER") {
		t.Errorf("server received %q: XOVER without a plan asking for it", s.Received())
	}
}
