package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/scheme"
)

func init() {
	register(&command{
		name:    "parse",
		summary: "split URLs into their components, strictly by RFC 1738 (or leniently, with repairs reported)",
		usage:   "[--json] [--lenient] [--format TEMPLATE] [URL...]",
		flags: func(fs *flag.FlagSet) {
			fs.Bool("json", false, "print one JSON object per input")
			fs.Bool("lenient", false, "accept what browsers accept, repairing by percent-encoding; each repair is a warning on stderr")
			fs.String("format", "", formatUsage)
		},
		run: runParse,
	})
}

// parseResult is the JSON form of one parsed input. A component that is
// absent is left out; a present, empty one is "".
type parseResult struct {
	Input    string        `json:"input"`
	Valid    bool          `json:"valid"`
	URL      string        `json:"url,omitempty"`
	Scheme   *string       `json:"scheme,omitempty"`
	User     *string       `json:"user,omitempty"`
	Password *string       `json:"password,omitempty"`
	Host     *string       `json:"host,omitempty"`
	Port     *string       `json:"port,omitempty"`
	Path     *string       `json:"path,omitempty"`
	Search   *string       `json:"search,omitempty"`
	Fragment *string       `json:"fragment,omitempty"`
	Warnings []jsonWarning `json:"warnings,omitempty"`
	Error    *jsonError    `json:"error,omitempty"`
	// View is the scheme's typed view (package scheme), written under a
	// key named after the scheme, e.g. "ftp". A URL that breaks its
	// scheme's own grammar gets "scheme_error" instead.
	View        scheme.View `json:"-"`
	SchemeError *jsonError  `json:"scheme_error,omitempty"`
	schemeErr   error
}

// MarshalJSON writes the result with the scheme-specific key.
func (r parseResult) MarshalJSON() ([]byte, error) {
	type plain parseResult
	b, err := json.Marshal(plain(r))
	if err != nil || r.View == nil || r.Scheme == nil {
		return b, err
	}
	vb, err := json.Marshal(r.View)
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal(*r.Scheme)
	out := append(b[:len(b)-1:len(b)-1], ',')
	out = append(out, key...)
	out = append(out, ':')
	out = append(out, vb...)
	return append(out, '}'), nil
}

type jsonError struct {
	Offset    int    `json:"offset"`
	Component string `json:"component,omitempty"`
	Message   string `json:"message"`
}

type jsonWarning struct {
	Offset    int    `json:"offset"`
	Component string `json:"component"`
	Message   string `json:"message"`
}

func opt(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

func newParseResult(input string, u urlkit.URL) parseResult {
	r := parseResult{Input: input, Valid: true, URL: u.String()}
	if u.IsAbsolute() {
		r.Scheme = opt(u.Scheme(), true)
		if v, err := scheme.ViewOf(u); err != nil {
			r.SchemeError = errorJSON(err)
			r.Valid = false
			r.schemeErr = err
		} else {
			r.View = v
		}
	}
	r.User = opt(u.User())
	r.Password = opt(u.Password())
	if u.HasAuthority() {
		r.Host = opt(u.Host(), true)
	}
	r.Port = opt(u.RawPort())
	r.Path = opt(u.Path())
	r.Search = opt(u.Search())
	r.Fragment = opt(u.Fragment())
	return r
}

func errorJSON(err error) *jsonError {
	var se *urlkit.SyntaxError
	if errors.As(err, &se) {
		return &jsonError{Offset: se.Offset, Component: se.Component.String(), Message: se.Reason()}
	}
	return &jsonError{Offset: -1, Message: err.Error()}
}

func runParse(e *env, fs *flag.FlagSet, args []string) int {
	asJSON := fs.Lookup("json").Value.(flag.Getter).Get().(bool)
	lenient := fs.Lookup("lenient").Value.(flag.Getter).Get().(bool)
	tpl, err := formatFlag(fs)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit parse: --format: %v\n", err)
		return exitUsage
	}
	status := exitOK
	err = eachInput(e, args, func(in string) bool {
		var u urlkit.URL
		var warns []urlkit.Warning
		var err error
		if lenient {
			u, warns, err = urlkit.ParseLenient(in)
		} else {
			u, err = urlkit.Parse(in)
		}
		for _, w := range warns {
			fmt.Fprintf(e.stderr, "urlkit: %q: warning: %s\n", in, w)
		}
		if err != nil {
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit: %q: %v\n", in, err)
			if asJSON {
				writeJSON(e.stdout, parseResult{Input: in, Error: errorJSON(err)})
			}
			return true
		}
		r := newParseResult(in, u)
		if r.schemeErr != nil {
			// The generic syntax holds but the scheme's grammar (RFC
			// 1738 section 5) does not: the URL is not valid.
			status = exitInvalid
			fmt.Fprintf(e.stderr, "urlkit: %q: %s URL: %v\n", in, u.Scheme(), r.schemeErr)
		}
		for _, w := range warns {
			r.Warnings = append(r.Warnings, jsonWarning{w.Offset, w.Component.String(), w.Reason})
		}
		if asJSON {
			writeJSON(e.stdout, r)
			return true
		}
		if tpl != nil {
			fmt.Fprintln(e.stdout, tpl.apply(u))
			return true
		}
		printParse(e, r)
		return true
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit: reading input: %v\n", err)
		return exitInvalid
	}
	return status
}

func printParse(e *env, r parseResult) {
	fmt.Fprintf(e.stdout, "%s\n", r.URL)
	line := func(k string, v *string) {
		if v != nil {
			fmt.Fprintf(e.stdout, "  %-9s %q\n", k+":", *v)
		}
	}
	line("scheme", r.Scheme)
	line("user", r.User)
	line("password", r.Password)
	line("host", r.Host)
	line("port", r.Port)
	line("path", r.Path)
	line("search", r.Search)
	line("fragment", r.Fragment)
}
