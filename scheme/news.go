package scheme

import (
	"errors"
	"strings"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/jsonw"
)

// NEWS (RFC 1738 3.6; RFC 1630, News): news:<newsgroup-name> | news:<message-id> | news:*

func init() { registerBuiltin("news", func(u urlkit.URL) (View, error) { return NewsOf(u) }) }

// News is the view of a news URL: all groups ("*"), one group, or one
// article by message-id. News URLs name no host (RFC 1630, News, note 1).
//
// Reserved: "@", which tells a message-id from a group name (RFC 1738
// 3.6: "No additional characters are reserved"), and "*", news:* being
// all groups; so news:a%3Fb@h and news:a?b@h are equal ([urlkit.Equal]).
// [Info].ReservedChars reports the set.
type News struct {
	u         urlkit.URL
	All       bool   // news:*
	Group     string // a newsgroup name
	MessageID string // without "<" ">", decoded
	id        part
}

// NewsOf checks u against RFC 1738's newsurl: grouppart = "*" | group |
// article, with group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
// and article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host.
// An "@" tells a message-id from a group name (RFC 1738 3.6).
func NewsOf(u urlkit.URL) (*News, error) {
	l := locOf(u)
	p := part{u.Opaque(), l.opaque(), urlkit.ComponentOpaque}
	v := &News{u: u}
	switch {
	case p.raw == "*":
		v.All = true
	case strings.IndexByte(p.raw, '@') >= 0:
		if err := checkArticle(l, p); err != nil {
			return nil, err
		}
		v.MessageID, v.id = p.decode(), p
	default:
		if err := checkGroup(l, p, "RFC 1738 5: group = alpha *[ alpha | digit | \"-\" | \".\" | \"+\" | \"_\" ]"); err != nil {
			return nil, err
		}
		v.Group = p.raw
	}
	return v, nil
}

func checkGroup(l loc, p part, rule string) error {
	if p.raw == "" {
		return l.err(p.off, p.comp, ErrBadGroup, "empty newsgroup name (%s)", rule)
	}
	for i := 0; i < len(p.raw); i++ {
		c := p.raw[i]
		ok := chars.Is(c, chars.Alpha) || (i > 0 && (chars.Is(c, chars.Digit) || strings.IndexByte("-.+_", c) >= 0))
		if !ok {
			return l.err(p.off+i, p.comp, ErrBadGroup, "%q is not allowed here in a newsgroup name, which starts with a letter (%s)", string(rune(c)), rule)
		}
	}
	return nil
}

func checkArticle(l loc, p part) error {
	at := strings.IndexByte(p.raw, '@')
	const rule = `RFC 1738 5: article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`
	if at == 0 {
		return l.err(p.off, p.comp, ErrBadArticle, "empty unique part before \"@\" in message-id (%s)", rule)
	}
	left := part{p.raw[:at], p.off, p.comp}
	if i := left.firstNot(ucharOr(";/?:&=")); i >= 0 {
		return l.err(p.off+i, p.comp, ErrBadArticle, "%q is not allowed in a message-id before \"@\" (%s)", left.raw[i:i+1], rule)
	}
	if off, why := newsHost(p.raw[at+1:]); off >= 0 {
		return l.err(p.off+at+1+off, p.comp, ErrBadArticle, "message-id domain: %s (%s)", why, rule)
	}
	return nil
}

// newsHost checks the domain of a message-id, s, against RFC 1738's host
// = hostname | hostnumber: the core's host rule (urlkit.CheckComponent),
// the one the parser applies to every URL's host, with an empty domain
// refused. It returns the offset of the first offending byte and why, or
// -1.
func newsHost(s string) (int, string) {
	if s == "" {
		return 0, "empty host"
	}
	if s[0] == '[' {
		return 0, `"[" is not allowed in a host name (an IPv6 literal is no message-id domain)`
	}
	var se *urlkit.SyntaxError
	if err := urlkit.CheckComponent(urlkit.ComponentHost, s); errors.As(err, &se) {
		return se.Offset, se.Reason()
	}
	return -1, ""
}

// URL returns the URL the view was made from.
func (v *News) URL() urlkit.URL { return v.u }

// NNTPPlan is the NNTP dialogue (RFC 977, RFC 3977) for a news or nntp
// URL: the server, and the commands the access package sends in order,
// exactly as they are: MODE READER (RFC 3977 5.3), then LIST, ARTICLE
// <message-id>, GROUP and ARTICLE n, or GROUP and OVER for a group's
// overview (XOVER, RFC 2980, when the server does not know OVER), then
// QUIT. Group, Article, MessageID and ListGroups sum up what is read.
type NNTPPlan struct {
	// Addr is the server: the URL's host for nntp, the configured news
	// server for news (empty when none is configured).
	Addr       string
	Group      string
	Article    string // article number within Group
	MessageID  string // with "<" and ">", as NNTP wants it
	ListGroups bool   // news:*: LIST all groups
	Commands   []NNTPCommand
	scheme     string
}

// An NNTPVerb is the command of one line of an NNTP dialogue.
type NNTPVerb uint8

// The NNTP commands of plans.
const (
	NNTPModeReader NNTPVerb = iota + 1 // MODE READER (RFC 3977 5.3)
	NNTPGroup                          // GROUP name: select a group, reply 211
	NNTPArticle                        // ARTICLE number or <message-id>: reply 220 and the article
	NNTPList                           // LIST: reply 215 and the groups
	NNTPOver                           // OVER range (RFC 3977 8.3): reply 224 and the overview
	NNTPXover                          // XOVER range (RFC 2980 2.8): the same, the older way
	NNTPQuit                           // QUIT, sent on Close
)

var nntpVerbs = [...]struct {
	name string
	arg  argRule
}{
	NNTPModeReader: {"MODE READER", argNever}, NNTPGroup: {"GROUP", argAlways}, NNTPArticle: {"ARTICLE", argAlways},
	NNTPList: {"LIST", argNever}, NNTPOver: {"OVER", argAlways}, NNTPXover: {"XOVER", argAlways}, NNTPQuit: {"QUIT", argNever},
}

// String returns the verb as sent, e.g. "GROUP"; "" for an unknown verb.
func (v NNTPVerb) String() string {
	if int(v) < len(nntpVerbs) {
		return nntpVerbs[v].name
	}
	return ""
}

// NNTPCommand is one command of an NNTP plan.
type NNTPCommand struct {
	Verb NNTPVerb
	Arg  string // the argument as sent; "" for a verb that takes none
	// Else is the verb sent instead, with the same argument, when the
	// server does not know Verb (a 5xx reply): XOVER after OVER. 0 when
	// none.
	Else NNTPVerb
}

// Line returns the command line exactly as sent, without its CRLF.
func (c NNTPCommand) Line() string { return c.line(c.Verb) }

// ElseLine returns the line of the fallback command, "" when there is
// none.
func (c NNTPCommand) ElseLine() string {
	if c.Else == 0 {
		return ""
	}
	return c.line(c.Else)
}

func (c NNTPCommand) line(v NNTPVerb) string {
	if int(v) < len(nntpVerbs) && nntpVerbs[v].arg == argAlways {
		return v.String() + " " + c.Arg
	}
	return v.String()
}

// Op returns the verb in lower case with "_" for a space, e.g.
// "mode_reader", "group".
func (c NNTPCommand) Op() string {
	if int(c.Verb) < len(nntpOps) {
		return nntpOps[c.Verb]
	}
	return ""
}

// nntpOps holds each verb's Op, computed once.
var nntpOps = func() (ops [len(nntpVerbs)]string) {
	for v := range ops {
		ops[v] = strings.ReplaceAll(strings.ToLower(nntpVerbs[v].name), " ", "_")
	}
	return ops
}()

// Text returns Line, with the fallback noted.
func (c NNTPCommand) Text() string {
	if c.Else != 0 {
		return c.Line() + " (" + c.ElseLine() + " if the server does not know " + c.Verb.String() + ", RFC 2980)"
	}
	return c.Line()
}

// Scheme returns "news" or "nntp".
func (p *NNTPPlan) Scheme() string { return p.scheme }

// Steps returns the connection, then each command.
func (p *NNTPPlan) Steps() []Step { return stepsAfter(Connect{Addr: p.Addr, For: "NNTP"}, p.Commands) }

// overAll is the command of a group's overview: every article from the
// first on (RFC 3977 8.3 range "1-"), XOVER when OVER is not known.
var overAll = NNTPCommand{Verb: NNTPOver, Arg: "1-", Else: NNTPXover}

// Plan returns the NNTP commands against cfg.NewsServer (default port
// 119): LIST for news:*, GROUP for a group, ARTICLE <message-id> for an
// article (RFC 1630, News).
func (v *News) Plan(cfg Config) (Plan, error) {
	p := &NNTPPlan{scheme: "news", Addr: cfg.NewsServer}
	if p.Addr != "" && !strings.Contains(p.Addr, ":") {
		p.Addr += ":119"
	}
	switch {
	case v.All:
		p.ListGroups = true
		p.Commands = []NNTPCommand{{Verb: NNTPModeReader}, {Verb: NNTPList}, {Verb: NNTPQuit}}
	case v.Group != "":
		p.Group = v.Group
		p.Commands = []NNTPCommand{{Verb: NNTPModeReader}, {Verb: NNTPGroup, Arg: v.Group}, overAll, {Verb: NNTPQuit}}
	default:
		id, err := v.id.wire(locOf(v.u), "message-id")
		if err != nil {
			return nil, err
		}
		if strings.ContainsAny(id, " <>") {
			return nil, locOf(v.u).err(v.id.off, v.id.comp, ErrBadArticle, "message-id %q decodes to a space or angle bracket, which an NNTP argument cannot hold (RFC 977)", id)
		}
		p.MessageID = "<" + id + ">"
		p.Commands = []NNTPCommand{{Verb: NNTPModeReader}, {Verb: NNTPArticle, Arg: p.MessageID}, {Verb: NNTPQuit}}
	}
	return p, nil
}

func (v *News) wireParts() []wirePart {
	if v.MessageID == "" {
		return nil
	}
	return []wirePart{{v.id, "message-id"}}
}

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the members of the view's JSON object (the package
// documentation's "JSON keys").
func (v *News) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KBool("all", v.All)
	w.KNonEmpty("group", v.Group)
	w.KNonEmpty("message_id", v.MessageID)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendViewJSON).
func (v *News) MarshalJSON() ([]byte, error) { return viewJSON(v) }

// writeJSON writes the plan's own members of its JSON object, before
// "steps".
func (p *NNTPPlan) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", p.Addr)
	w.KNonEmpty("group", p.Group)
	w.KNonEmpty("article", p.Article)
	w.KNonEmpty("message_id", p.MessageID)
	w.KBool("list_groups", p.ListGroups)
	return w
}

// MarshalJSON implements json.Marshaler (see AppendPlanJSON).
func (p *NNTPPlan) MarshalJSON() ([]byte, error) { return planJSON(p) }

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s NNTPCommand) writeJSON(w jsonw.Writer) jsonw.Writer {
	if int(s.Verb) < len(nntpVerbs) && nntpVerbs[s.Verb].arg == argAlways {
		w.KStr("arg", s.Arg)
	}
	if s.Else != 0 {
		w.Key("else")
		w.OpenArray()
		w.Str(NNTPCommand{Verb: s.Else}.Op())
		w.CloseArray()
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s NNTPCommand) MarshalJSON() ([]byte, error) { return stepJSON(s) }
