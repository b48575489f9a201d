package access

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urlkit/urlkit/scheme"
)

// ErrNoNewsServer is returned for a news plan without a server: news URLs
// name no host (RFC 1630, News), so one must be configured.
var ErrNoNewsServer = errors.New("news: no news server configured (set NNTPSERVER or --nntp-server)")

func init() { registerClient((*execution).nntp) }

// nntp carries out an NNTP plan: each of p.Commands in order, by its
// verb. MODE
// READER may be refused with 5xx (a server without the command is used as
// it is); GROUP wants 211; ARTICLE 220; LIST 215; OVER 224, with XOVER
// (RFC 2980) sent instead when OVER is not known (5xx) and an empty
// overview on 420 or 423 (no articles). The multi-line response is the
// stream, dot-stuffing undone and line ends kept as sent; a response that
// ends before its "." line is an error. QUIT is sent on Close.
func (x *execution) nntp(p *scheme.NNTPPlan) (*Resource, error) {
	if p.Addr == "" {
		return nil, ErrNoNewsServer
	}
	if len(p.Commands) < 2 || p.Commands[len(p.Commands)-1].Verb != scheme.NNTPQuit {
		return nil, fmt.Errorf("nntp: plan does not end with QUIT: %q", scheme.StepTexts(p))
	}
	for i, c := range p.Commands {
		if strings.ContainsAny(c.Arg, "\r\n\x00") {
			return nil, fmt.Errorf("nntp: plan command %d %q holds CR, LF or NUL; refusing to send it (RFC 1738 6)", i+1, EscapeText(c.Line()))
		}
	}
	raw, err := x.dial("nntp", p.Addr)
	if err != nil {
		return nil, err
	}
	stop := x.watch(raw)
	c := x.newCtrl("nntp", raw)
	// healthy: the session is between commands, so QUIT may be sent.
	healthy := true
	closer := func() error {
		if healthy && x.ctx.Err() == nil {
			raw.SetDeadline(time.Now().Add(2 * time.Second))
			if c.send("QUIT", "QUIT") == nil {
				c.reply("QUIT")
			}
		}
		stop()
		return raw.Close()
	}
	fail := func(err error) (*Resource, error) {
		var re *ReplyError
		if !errors.As(err, &re) {
			healthy = false
		}
		closer()
		return nil, err
	}
	code, msg, err := c.reply("greeting")
	if err != nil {
		return fail(err)
	}
	if code != 200 && code != 201 {
		healthy = false
		return fail(c.refused("greeting", code, msg))
	}
	body := func(step, kind string) (*Resource, error) {
		healthy = false // until the whole response has been read
		m := x.newMeter(c.br, "nntp", step)
		d := &dotReader{r: bufio.NewReaderSize(m, 32<<10), start: true, strict: true}
		ct := "text/plain"
		if kind == "article" {
			ct = "message/rfc822"
		}
		b := x.newBody(d, m, "nntp", step, func() error { healthy = true; return nil }, closer)
		return &Resource{ReadCloser: b, Plan: p, Kind: kind, ContentType: ct, Size: -1}, nil
	}
	for _, cmd := range p.Commands[:len(p.Commands)-1] {
		line := cmd.Line()
		code, msg, err := c.cmd(line, line)
		if err != nil {
			return fail(err)
		}
		switch cmd.Verb {
		case scheme.NNTPModeReader:
			if code != 200 && code != 201 && code/100 != 5 {
				return fail(c.refused(line, code, msg))
			}
		case scheme.NNTPGroup:
			if code != 211 {
				return fail(c.refused(line, code, msg))
			}
		case scheme.NNTPArticle:
			if code != 220 {
				return fail(c.refused(line, code, msg))
			}
			return body(line, "article")
		case scheme.NNTPList:
			if code != 215 {
				return fail(c.refused(line, code, msg))
			}
			return body(line, "groups")
		case scheme.NNTPOver, scheme.NNTPXover:
			if code/100 == 5 && cmd.Else != 0 { // RFC 2980's XOVER on servers without OVER
				line = cmd.ElseLine()
				if code, msg, err = c.cmd(line, line); err != nil {
					return fail(err)
				}
			}
			switch code {
			case 224:
				return body(line, "overview")
			case 420, 423: // no articles in the group or range
				b := x.newBody(strings.NewReader(""), nil, "nntp", line, nil, closer)
				return &Resource{ReadCloser: b, Plan: p, Kind: "overview", ContentType: "text/plain", Size: 0}, nil
			}
			return fail(c.refused(line, code, msg))
		default:
			return fail(fmt.Errorf("nntp: plan command %q is not one this client carries out", EscapeText(line)))
		}
	}
	return fail(fmt.Errorf("nntp: plan ends before its retrieval"))
}
