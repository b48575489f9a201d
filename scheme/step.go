package scheme

import (
	"strings"

	"github.com/urlkit/urlkit/internal/jsonw"
)

// A Step is one step of a plan: a command, request or message a client
// sends, or something it does that sends nothing (start a session, open a
// local file). Each protocol has its own concrete step types, whose fields
// are what the step is made of, typed and decoded ([FTPCommand],
// [NNTPCommand], [GopherRequest], [HTTPRequest], [Connect]...); the access
// package executes them by those fields and never reads their text.
//
// Op and Text are derived from the fields: Text is what `urlkit plan`
// prints, and for a step that sends a line it is that line exactly as sent
// (a password from the URL masked), followed by a note in parentheses
// when the step carries a rule (a fallback, a guessed argument).
type Step interface {
	// Op names the kind of step in lower case: the FTP or NNTP verb
	// ("user", "cwd", "epsv", "group"...), or "connect", "request",
	// "read", "session"... It is the "op" key of the step's JSON.
	Op() string
	// Text returns the step as a person reads it (see the type's
	// comment).
	Text() string
}

// Connect is the step that opens a network connection: the first of every
// plan that has one.
type Connect struct {
	// Addr is host:port; "" for a news plan with no news server
	// configured (news URLs name no host, RFC 1630).
	Addr string
	// For says what the connection is for, as the text shows it in
	// parentheses ("FTP control connection", "NNTP"); "" for none.
	For string
	// TLS is set when TLS to ServerName is set up first (https).
	TLS        bool
	ServerName string
}

// Op returns "connect".
func (Connect) Op() string { return "connect" }

// Text returns "connect to <Addr> (<For>)".
func (c Connect) Text() string {
	if c.Addr == "" {
		return "connect to the local news server (set NNTPSERVER; news URLs name no host, RFC 1630)"
	}
	s := "connect to " + c.Addr
	switch {
	case c.TLS:
		s += " (TLS, server name " + c.ServerName + ")"
	case c.For != "":
		s += " (" + c.For + ")"
	}
	return s
}

// Action is a step that sends nothing urlkit speaks itself: what a client
// does, in words (WAIS and Prospero operations until they have typed
// messages, the lookup of a mid or cid URL).
type Action struct {
	Kind string // the step's Op, e.g. "lookup"
	Says string // the step's Text
}

// Op returns a.Kind.
func (a Action) Op() string { return a.Kind }

// Text returns a.Says.
func (a Action) Text() string { return a.Says }

// stepsAfter returns first, then each of steps, as the Steps of a plan.
func stepsAfter[S Step](first Step, steps []S) []Step {
	out := make([]Step, 0, len(steps)+1)
	out = append(out, first)
	for _, s := range steps {
		out = append(out, s)
	}
	return out
}

// StepTexts returns the Text of each of p's steps, in order: the plan as
// `urlkit plan` prints it.
func StepTexts(p Plan) []string {
	steps := p.Steps()
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = s.Text()
	}
	return out
}

// holdsLineBreak reports whether s holds CR, LF or NUL, which no argument
// of a command line may hold (RFC 1738 6).
func holdsLineBreak(s string) bool { return strings.ContainsAny(s, "\r\n\x00") }

// ---- JSON -----------------------------------------------------------------

// writeJSON writes the step's own members of its JSON object, between
// "op" and "text".
func (s Connect) writeJSON(w jsonw.Writer) jsonw.Writer {
	w.KStr("addr", s.Addr)
	if s.TLS {
		w.KBool("tls", true)
		w.KStr("server_name", s.ServerName)
	}
	return w
}

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s Connect) MarshalJSON() ([]byte, error) { return stepJSON(s) }

// MarshalJSON implements json.Marshaler (see AppendStepJSON).
func (s Action) MarshalJSON() ([]byte, error) { return stepJSON(s) }
