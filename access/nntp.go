package access

import (
	"context"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
)

// NNTPRequest is one news retrieval (RFC 1738 sections 3.6 and 3.7). Exactly
// one of ListGroups, MessageID, or Group (with or without Article) is used,
// in that order of precedence.
type NNTPRequest struct {
	// Addr is the server's host:port.
	Addr string
	// Group is a newsgroup name. With Article it selects the group before
	// ARTICLE n; alone it asks for the group's overview (OVER, or XOVER on
	// servers without OVER).
	Group string
	// Article is an article number within Group.
	Article string
	// MessageID is a message-id, with or without its angle brackets
	// (news:<message-id> in RFC 1738 leaves them out); it is fetched with
	// ARTICLE <message-id> and needs no group.
	MessageID string
	// ListGroups asks for the list of active groups (LIST), as news:*
	// does.
	ListGroups bool
}

func (r *NNTPRequest) validate() error {
	for _, f := range []struct{ name, v string }{{"Group", r.Group}, {"Article", r.Article}, {"MessageID", r.MessageID}} {
		if err := checkArg("nntp", f.name, f.v); err != nil {
			return err
		}
		if strings.ContainsAny(f.v, " \t") {
			return &UnsafeArgumentError{Protocol: "nntp", Field: f.name, Value: f.v}
		}
	}
	if r.Article != "" {
		if _, err := strconv.ParseUint(r.Article, 10, 63); err != nil {
			return fmt.Errorf("nntp: article number %q is not a number", r.Article)
		}
		if r.Group == "" && r.MessageID == "" {
			return fmt.Errorf("nntp: article number %s needs a group", r.Article)
		}
	}
	if !r.ListGroups && r.MessageID == "" && r.Group == "" {
		return fmt.Errorf("nntp: nothing to fetch: no group, article or message-id")
	}
	return nil
}

type nntpConn struct {
	ctx  context.Context
	tp   *textproto.Conn
	opts *Options
}

func (c *nntpConn) cmd(step, line string) (int, string, error) {
	c.opts.tracef("C: %s", line)
	if err := c.tp.PrintfLine("%s", line); err != nil {
		return 0, "", &StepError{Protocol: "nntp", Step: step, Err: ctxErr(c.ctx, err)}
	}
	code, msg, err := c.tp.ReadCodeLine(0)
	if err != nil {
		if _, ok := err.(*textproto.Error); !ok {
			return 0, "", &StepError{Protocol: "nntp", Step: step, Err: ctxErr(c.ctx, err)}
		}
	}
	return code, msg, nil
}

// FetchNNTP connects, sends MODE READER (RFC 3977 section 5.3; a server that
// does not know it is used as it is), then carries out the request: LIST,
// ARTICLE <message-id>, GROUP and ARTICLE n, or GROUP and OVER. The returned
// stream holds the multi-line response's text with dot-stuffing undone and
// line ends kept as sent (CRLF). Close sends QUIT.
func FetchNNTP(ctx context.Context, req *NNTPRequest, opts *Options) (io.ReadCloser, error) {
	if opts == nil {
		opts = &Options{}
	}
	if err := req.validate(); err != nil {
		return nil, err
	}
	raw, err := opts.dial(ctx, "nntp", req.Addr)
	if err != nil {
		return nil, err
	}
	stop := watch(ctx, raw)
	rw := controlRW(raw, opts)
	c := &nntpConn{ctx: ctx, opts: opts, tp: textproto.NewConn(struct {
		io.Reader
		io.Writer
		io.Closer
	}{rw, rw, raw})}
	// healthy: the session is between commands, so QUIT may be sent.
	healthy := true
	var closer func() error
	atEOF := func() error { healthy = true; return nil }
	body := func(r io.Reader) (io.ReadCloser, error) {
		healthy = false // until the whole response has been read
		return newBody(ctx, r, opts, atEOF, closer), nil
	}
	closer = func() error {
		if healthy && ctx.Err() == nil {
			c.cmd("QUIT", "QUIT")
		}
		stop()
		return raw.Close()
	}
	fail := func(err error) (io.ReadCloser, error) {
		if _, ok := err.(*ReplyError); !ok {
			healthy = false
		}
		closer()
		return nil, err
	}
	code, msg, err := c.tp.ReadCodeLine(0)
	if err != nil {
		if _, ok := err.(*textproto.Error); !ok {
			return fail(&StepError{Protocol: "nntp", Step: "greeting", Err: ctxErr(ctx, err)})
		}
	}
	if code != 200 && code != 201 {
		healthy = false
		return fail(&ReplyError{Protocol: "nntp", Step: "greeting", Code: code, Text: msg})
	}
	code, msg, err = c.cmd("MODE READER", "MODE READER")
	if err != nil {
		return fail(err)
	}
	if code != 200 && code != 201 && code/100 != 5 {
		return fail(&ReplyError{Protocol: "nntp", Step: "MODE READER", Code: code, Text: msg})
	}

	var step, line string
	var want int
	switch {
	case req.ListGroups:
		step, line, want = "LIST", "LIST", 215
	case req.MessageID != "":
		id := req.MessageID
		if !strings.HasPrefix(id, "<") {
			id = "<" + id + ">"
		}
		step, line, want = "ARTICLE "+strconv.Quote(id), "ARTICLE "+id, 220
	default:
		gstep := "GROUP " + strconv.Quote(req.Group)
		code, msg, err := c.cmd(gstep, "GROUP "+req.Group)
		if err != nil {
			return fail(err)
		}
		if code != 211 {
			return fail(&ReplyError{Protocol: "nntp", Step: gstep, Code: code, Text: msg})
		}
		if req.Article != "" {
			step, line, want = "ARTICLE "+strconv.Quote(req.Article), "ARTICLE "+req.Article, 220
			break
		}
		// 211 count first last group
		f := strings.Fields(msg)
		if len(f) < 3 || f[0] == "0" {
			return newBody(ctx, strings.NewReader(""), opts, nil, closer), nil
		}
		rng := f[1] + "-" + f[2]
		step, line, want = "OVER "+strconv.Quote(rng), "OVER "+rng, 224
		code, msg, err = c.cmd(step, line)
		if err != nil {
			return fail(err)
		}
		if code/100 == 5 { // RFC 2980's XOVER on servers without OVER
			step, line = "XOVER "+strconv.Quote(rng), "XOVER "+rng
		} else {
			if code != want {
				return fail(&ReplyError{Protocol: "nntp", Step: step, Code: code, Text: msg})
			}
			return body(&dotReader{r: c.tp.R})
		}
	}
	code, msg, err = c.cmd(step, line)
	if err != nil {
		return fail(err)
	}
	if code != want {
		return fail(&ReplyError{Protocol: "nntp", Step: step, Code: code, Text: msg})
	}
	return body(&dotReader{r: c.tp.R})
}
