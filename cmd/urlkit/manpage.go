package main

import (
	"flag"
	"sort"
	"strings"

	"github.com/urlkit/urlkit"
)

// The help of each command, the man page urlkit(1) ("urlkit help --man")
// and the shell completions ("urlkit help --completion bash|zsh|fish") are
// all written from the flag sets the command line parses with
// (newFlagSet), so a flag cannot be parsed without being documented.

// A flagDoc is one flag of a command as its help shows it.
type flagDoc struct {
	name  string // the flag's name, without dashes
	short string // its one-letter alias, "" when it has none
	arg   string // the value's placeholder (FILE, DURATION...); "" for a switch
	usage string // one line, as defined
	def   string // the default as the help shows it, "" when none is worth saying
	// values are the words the flag takes, when they are a fixed set the
	// flag's own type knows (a resolution mode); completions offer them.
	values []string
}

// spellings returns the flag's spellings, the short one first: "-I",
// "--head".
func (f flagDoc) spellings() []string {
	if f.short != "" {
		return []string{flagSpelling(f.short), flagSpelling(f.name)}
	}
	return []string{flagSpelling(f.name)}
}

// commandFlags returns c's flags in name order, each alias folded into
// the flag it stands for.
func commandFlags(c *command) []flagDoc {
	fs := newFlagSet(c)
	short := map[string]string{} // long name -> short alias
	for s, l := range c.aliases {
		short[l] = s
	}
	var out []flagDoc
	fs.VisitAll(func(f *flag.Flag) {
		if _, isAlias := c.aliases[f.Name]; isAlias {
			return
		}
		d := flagDoc{name: f.Name, short: short[f.Name]}
		arg, usage := flag.UnquoteUsage(f)
		if _, ok := f.Value.(*stringList); ok && arg == "value" {
			arg = "VALUE"
		}
		if !isSwitch(f) {
			d.arg = strings.ToUpper(arg)
		}
		d.usage = usage
		if g, ok := f.Value.(flag.Getter); ok {
			if _, ok := g.Get().(*urlkit.Mode); ok {
				for _, m := range urlkit.Modes() {
					d.values = append(d.values, m.String())
				}
			}
		}
		if v := f.DefValue; v != "" && v != "0" && v != "false" && v != "0s" {
			d.def = v
		}
		out = append(out, d)
	})
	return out
}

// orderedCommands returns the commands in the order of "urlkit help":
// by task (commandGroups), then the others by name.
func orderedCommands() []*command {
	var out []*command
	listed := map[string]bool{}
	for _, g := range commandGroups {
		for _, n := range g.names {
			if c := commands[n]; c != nil {
				out = append(out, c)
				listed[n] = true
			}
		}
	}
	var other []string
	for n := range commands {
		if !listed[n] {
			other = append(other, n)
		}
	}
	sort.Strings(other)
	for _, n := range other {
		out = append(out, commands[n])
	}
	return out
}

// roff escapes text for a roff line: backslashes, and a "." or "'" that
// would start a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffDashes writes a command line's text in roff, each "-" a minus sign
// (\-), as a man page writes flags so that they can be searched and
// copied.
func roffDashes(s string) string {
	return strings.ReplaceAll(roff(s), "-", `\-`)
}

// roffParagraphs writes a help note's lines as roff text: the notes are
// wrapped for a terminal, roff fills them again.
func roffParagraphs(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(roff(l) + "\n")
	}
	return b.String()
}

// manIntro, manInputs, manExit, manEnv and manSeeAlso are the page's
// fixed sections; what each command and flag is comes from the commands.
const manIntro = `urlkit implements the Web's original addressing system exactly: RFC 1630
(Universal Resource Identifiers in WWW) and RFC 1738 (Uniform Resource
Locators). It parses strictly against the RFC grammars and explains every
rejection with a byte offset, knows what each scheme's parts mean, compares
URLs by RFC 1630's equivalence rules, fetches every scheme of 1994 over its
real protocol (ftp, gopher, news and nntp, http, file, wais, prospero), and
serves gopher, ftp and news to browsers as an HTTP gateway.
`

const manInputs = `Every command that takes URLs (or strings, for escape and unescape)
reads them from its arguments, from --url-file FILE (repeatable; - is
standard input), or, when there are neither, one per line from standard
input. An argument is taken exactly as given: a space around it is part of
it. A line of a stream is taken without its line ending and surrounding
white space, and a blank line is skipped (escape and unescape take their
lines as written). A line longer than --max-line bytes is reported with its
number and skipped. Results are written in input order. Every message
names the input (its line, for a stream), the byte offset and component, or
the protocol step, and what was wrong.
`

var manExit = [][2]string{
	{"0", "every input was valid (for equal: equivalent); get: done"},
	{"1", "an input was invalid, a finding was an error, or a retrieval failed"},
	{"2", "a usage error: an unknown command or flag, a flag without its value"},
	{"3", "get: the protocol cannot be retrieved (mid, cid)"},
	{"128+N", "get: stopped by signal N (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP); no partial file is left"},
}

var manEnv = [][2]string{
	{"EMAIL", "the anonymous ftp password (--email overrides it); without it, $USER@localhost"},
	{"NNTPSERVER", "the news server for news: URLs (--nntp-server overrides it)"},
	{"<scheme>_proxy", "get fetches URLs of that scheme (http, ftp, gopher, news, nntp, wais, prospero) through this gateway, such as urlkit serve; upper-case names are read too, except HTTP_PROXY"},
	{"no_proxy", "host names, .domain suffixes, host:port pairs or * reached directly"},
	{"GOGC", "the collector's setting; a command reading a stream runs at 400 unless it is set"},
}

const manSeeAlso = `curl(1), lynx(1), wget(1).
.PP
README.md and docs/ in the source, https://github.com/urlkit/urlkit, and
the package documentation: go doc github.com/urlkit/urlkit.
.PP
RFC 1630, RFC 1738, RFC 1436 (gopher), RFC 959 (ftp), RFC 977 (nntp),
RFC 1625 (WAIS).
`

// manPage writes urlkit(1) in roff (man macros).
func manPage() string {
	var b strings.Builder
	b.WriteString(`.\" urlkit(1): written by "urlkit help --man" from the command line's own
.\" flag definitions (cmd/urlkit/manpage.go). Do not edit by hand.
.TH URLKIT 1 "" urlkit "User Commands"
.nh
.ad l
.SH NAME
urlkit \- parse, check, compare, fetch and serve URLs as RFC 1630 and RFC 1738 define them
.SH SYNOPSIS
.B urlkit
.I command
.RI [ flags ]
.RI [ URL ...]
.br
.B urlkit help
.RI [ command ]
.br
.B urlkit help \-\-man
.br
\fBurlkit help \-\-completion\fR \fIbash\fR|\fIzsh\fR|\fIfish\fR
.br
.B urlkit \-\-version
.SH DESCRIPTION
`)
	b.WriteString(roffParagraphs(manIntro))
	b.WriteString(".PP\nFlags may come before or after the URLs; \\-\\- ends them. A flag is written\n" +
		"\\-x or \\-\\-name, its value after = or as the next argument.\n")
	b.WriteString(".SH COMMANDS\n")
	for _, c := range orderedCommands() {
		b.WriteString(".SS \"" + c.name + " " + strings.ReplaceAll(roffDashes(c.usage), `"`, `\(dq`) + "\"\n")
		b.WriteString(roff(c.summary) + ".\n")
		for _, f := range commandFlags(c) {
			b.WriteString(".TP\n" + manFlagLine(f) + "\n" + roff(f.usage))
			if f.def != "" {
				b.WriteString(" (default " + roff(f.def) + ")")
			}
			b.WriteString("\n")
		}
		if c.notes != "" {
			b.WriteString(".PP\n" + roffParagraphs(c.notes))
		}
	}
	b.WriteString(".SH INPUTS\n" + roffParagraphs(manInputs))
	b.WriteString(".SH EXIT STATUS\n")
	for _, e := range manExit {
		b.WriteString(".TP\n.B " + e[0] + "\n" + roff(e[1]) + "\n")
	}
	b.WriteString(".SH ENVIRONMENT\n")
	for _, e := range manEnv {
		b.WriteString(".TP\n.B " + e[0] + "\n" + roff(e[1]) + "\n")
	}
	b.WriteString(`.SH EXAMPLES
.nf
urlkit parse 'ftp://myname@host.dom/%2Fetc/motd;type=a'
urlkit plan gopher://gopher.floodgap.com/1/
urlkit get \-o motd ftp://ftp.example.org/pub/motd
urlkit canon \-\-url\-file links.txt | sort \-u
urlkit serve \-\-allow localhost:7070
urlkit help \-\-completion bash > /etc/bash_completion.d/urlkit
.fi
.SH SEE ALSO
`)
	b.WriteString(manSeeAlso) // roff already: the paragraphs are .PP requests
	return b.String()
}

// manFlagLine is a flag's tag line: ".BR \-I ", " \-\-head " DURATION.
func manFlagLine(f flagDoc) string {
	parts := f.spellings()
	for i, p := range parts {
		parts[i] = `\fB` + roffDashes(p) + `\fR`
	}
	line := strings.Join(parts, ", ")
	if f.arg != "" {
		line += ` \fI` + roff(f.arg) + `\fR`
	}
	return line
}
