// Package scheme knows what the parts of each URL scheme of RFC 1738 and
// RFC 1630 mean: the typed view of a URL (an ftp URL's CWD segments and
// transfer type, a gopher URL's selector and search), the scheme-specific
// grammar of RFC 1738 section 5 checked with byte offsets, the default
// port, the access plan (the exact commands a client sends), and the
// security findings of RFC 1738 section 6.
//
// The package sits on the core parser: [urlkit.Parse] gives the generic
// syntax, [ViewOf] gives the scheme's reading of it, and [View.Plan] gives
// what a client would do. Carrying a plan out over the network is the
// business of the access package.
//
// Schemes live in a registry that programs may extend, as RFC 1738 section
// 4 lets new schemes be defined and as [database/sql.Register] lets drivers
// be added: see [Register].
//
// # Plans are typed steps
//
// A plan is data, never text to be read back. Each plan type holds its
// steps as typed values: [FTPPlan.Commands] is a list of [FTPCommand]
// (a verb such as [FTPCwd], its decoded argument, where a password comes
// from, the verb to send instead when the server refuses this one),
// [NNTPPlan.Commands] a list of [NNTPCommand], a [GopherPlan] holds one
// [GopherRequest] and an [HTTPPlan] one [HTTPRequest]. The access package
// executes those fields: it switches on the verb, sends the command's Line,
// reads the reply the verb calls for, and decides a fallback by the
// command's Else, so what `urlkit plan` prints is what `urlkit get` sends.
//
// [Plan.Steps] lists every step, the connection included, as a [Step]: a
// value with Op (a lower-case name: "user", "cwd", "epsv", "connect") and
// Text (the line `urlkit plan` prints). Both are computed from the step's
// fields: a command's Text is its line exactly as sent, a password from
// the URL masked, with a note for a rule ("EPSV (PASV if refused; ...)").
// The JSON of `urlkit plan --json` is written from the same values.
//
// To add a step to a scheme: give it a type with the fields a client
// needs (or, for a line protocol, a verb constant, e.g. a new [FTPVerb]
// with its text and argument rule in the verb table), methods Op and Text
// computed from those fields, and return it from the plan's Steps; then
// execute it in the access package by its fields (a case of the
// protocol's switch on the verb) and write its JSON keys (its writeJSON
// method, beside the type, and its line in "JSON keys" below). A step whose
// choice depends on a reply carries the rule as data, as [FTPCommand.Else]
// does (EPSV, then PASV if refused): a choice made from an earlier reply,
// such as "MLSD if the FEAT reply lists MLST, else LIST", is one more
// field of the command that the access package reads, never a marker in
// its text.
//
// # JSON
//
// Views, plans and steps have one JSON form, written by hand (no
// reflection) by [AppendViewJSON], [AppendPlanJSON] and [AppendStepJSON],
// which their MarshalJSON methods and `urlkit parse --json` and `urlkit
// plan --json` call. Each type writes its own keys in its scheme's file
// (a writeJSON method), so a scheme is one file: its view, grammar,
// plan, steps and JSON. (The speed paths of `urlkit parse --json` for file
// and http, a view built without an allocation and a view's JSON written
// straight from a valid URL, are written out in ViewInto and
// AppendValidViewJSON: called through a function of the scheme's they
// cost 7% more. A new scheme needs none.) A plan's object has its scheme's keys, then "steps";
// each step's object has "op", its type's keys, then "text". A password
// from the URL is never in a plan or a step (a PASS step says only where
// its password comes from: "source": "url").
//
// # JSON keys
//
// Each object's keys, in the order they are written. "key?" is written
// only when the value is present (a component the URL has, a name that is
// not empty, a flag that is true); "key[]" is an array; "key[o]" an array
// of objects o and "key{o}" an object o, listed below.
//
//	view ftp: host port user? password? cwd[] name type
//	view http, https: host port user? password? path search?
//	view gopher: host port type selector search? plus? plus_parsed{gopher_plus}?
//	gopher_plus: kind view? language? attributes[]? values[]?
//	view mailto: address
//	view mid, cid: id header
//	view news: all group? message_id?
//	view nntp: host port group article?
//	view prospero: host port hsoname fields[prospero_field]? version? attributes[]?
//	prospero_field: name value
//	view telnet, tn3270, rlogin: program host port user? password?
//	view wais: host port form database search? wtype? wpath? docid_fields[wais_docid_field]?
//	wais_docid_field: number value
//	view file: host local segments[]
//	view afs, mailserver, nfs, urn, z39.50: scheme source reserved opaque
//	view other: scheme experimental opaque
//	plan ftp: addr cwd[] name type type_guessed list head? steps[step]
//	plan gopher: addr type selector search? plus? reply steps[step]
//	plan news, nntp: addr group? article? message_id? list_groups steps[step]
//	plan http, https: addr tls server_name? url compressed proxy_request_line steps[step]
//	plan telnet, tn3270, rlogin: program addr user? steps[step]
//	plan mailto: to steps[step]
//	plan file: path steps[step]
//	plan wais: addr form database url steps[step]
//	plan prospero: addr hsoname steps[step]
//	plan mid, cid: header value steps[step]
//	plan other: steps[step]
//	step connect: op addr tls? server_name? text
//	step other: op text
//	ftp, news, nntp step command: op arg? source? feature? else[]? guessed? text
//	ftp step if_directory: op refused name text
//	gopher step request: op selector search? plus? form? line text
//	gopher step read: op type as plus_header? text
//	http, https step request_line: op method request_uri version text
//	http, https step header: op name value text
//	http, https step end_header: op text
//	http, https step response: op text
//	telnet, tn3270, rlogin step session: op program addr text
//	telnet, tn3270, rlogin step advise_user: op user text
//	telnet, tn3270, rlogin step advise_password: op text
//	mailto step compose: op to text
//	file step open: op path text
//	wais step init: op preferred_message_size maximum_record_size implementation_name text
//	wais step search: op database seed_words ask_user? max_documents text
//	wais step retrieve: op database docid type chunk text
//	prospero step request: op when reply text
//	prospero step version: op version text
//	prospero step authenticate: op type data text
//	prospero step directory: op hsoname_type hsoname object_version? text
//	prospero step select: op applies_to namespace name value_type value text
//	prospero step list: op options components[]? text
//	prospero step get_object_info: op attributes[] hsoname_type hsoname object_version text
//
// "view other" is the view of a scheme urlkit does not know, "plan other"
// the plan of a scheme a program registered. A step is listed by the
// schemes whose plans have it and its op; "step connect" opens every
// network plan's connection, and "step other" is any step not listed
// (the lookup of a mid or cid URL, a registered scheme's steps). A
// "command" is an FTP or NNTP command, its op the verb in lower case
// ("mode_reader" for MODE READER): "arg" is its argument when the verb
// takes one (not for a password from the URL or the user), "source" where
// a PASS argument comes from ("url", "anonymous", "ask"), "feature" and
// "else" the rule for the verbs sent instead ([FTPCommand]). An ftp plan's
// "if_directory" step starts the commands sent when the server refuses
// the command named by "refused" (retr, or size with Config.Head) with 550:
// "name" may be a directory ([FTPPlan.Directory]). A Prospero
// plan's steps are its requests, each followed by its commands and their
// SELECT lines; an HTTP header field's value has an Authorization's
// credentials masked.
package scheme

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/urlkit/urlkit"
	"github.com/urlkit/urlkit/internal/chars"
	"github.com/urlkit/urlkit/internal/schemes"
)

// A Scheme is what the package knows about one URL scheme: its name, its
// syntax and default port, and how to read a parsed URL of that scheme.
type Scheme interface {
	// Info returns the scheme's name (lower case), syntax, default port
	// and the document that defines it.
	Info() Info
	// View checks u, an absolute URL of this scheme, against the
	// scheme-specific grammar and returns its typed view. Errors are
	// *urlkit.SyntaxError values with offsets in the original input.
	View(u urlkit.URL) (View, error)
}

// A View is a scheme's typed reading of one URL. Each scheme has its own
// concrete type ([*FTP], [*HTTP], [*Gopher]...); type-switch on it to reach
// the scheme's fields.
type View interface {
	// URL returns the URL the view was made from.
	URL() urlkit.URL
	// Plan returns how a client accesses the resource. It fails with a
	// *urlkit.SyntaxError wrapping [ErrControl] when a part it would send
	// on the wire decodes to a control character, and with an error
	// wrapping [ErrNoAccess] when the scheme defines no access method.
	Plan(cfg Config) (Plan, error)
}

// A Plan is the access algorithm of RFC 1738 section 3 applied to one URL:
// what to connect to and what to send, decoded and typed. Each scheme has
// its own concrete type ([*FTPPlan], [*GopherPlan]...), which holds its
// steps typed ([FTPPlan.Commands]); the access package executes them.
type Plan interface {
	// Scheme returns the lower-case name of the scheme the plan is for.
	Scheme() string
	// Steps returns the plan's steps in order, each a typed value whose
	// Text is one line of `urlkit plan` (see [Step]).
	Steps() []Step
}

// Config holds what a plan needs that a URL does not say.
type Config struct {
	// NewsServer is the host[:port] of the news server that news URLs are
	// read from; news URLs name no host (RFC 1630, News, note 1).
	NewsServer string
	// Email is the end user's Internet e-mail address, sent as the
	// password of anonymous FTP (RFC 1738 3.2.1).
	Email string
	// Compressed makes HTTP plans ask for a compressed body
	// (Accept-Encoding: gzip); the access layer then decodes it. Off by
	// default, so that a body is what the server stores.
	Compressed bool
	// UserAgent is the User-Agent field of HTTP plans; empty means
	// DefaultUserAgent.
	UserAgent string
	// FTPListDetails makes FTP directory plans ask for each entry's kind,
	// size and date: "FEAT", then "MLSD" (RFC 3659 7), which the client
	// sends as LIST (RFC 959 4.1.3) when the FEAT reply does not offer
	// MLST, and as NLST when LIST is refused. Off by default: RFC 1738
	// 3.2.2 lists a directory with NLST, names only. The gateway sets it.
	FTPListDetails bool
	// Head makes a plan ask what is known about the resource instead of
	// retrieving it (urlkit get -I): an HTTP HEAD request; for an ftp file,
	// TYPE I, then SIZE and MDTM (RFC 3659 4, 3), whose replies a client
	// shows as Content-Length and Last-Modified, and for an ftp directory
	// its CWD commands alone; for gopher, the Gopher+ item attribute
	// request, the selector with "!" for its Gopher+ string (RFC 1738
	// 3.4.6), read as an attribute block. [PlanOf] refuses it, wrapping
	// [ErrNoHead], for the other schemes.
	Head bool
}

// ErrNoHead: Config.Head for a scheme that has no request for what is
// known about a resource (only http, https, ftp and gopher have one).
var ErrNoHead = errors.New("no header request for this scheme")

// DefaultUserAgent is the User-Agent of HTTP plans when Config names none.
const DefaultUserAgent = "urlkit/1"

// ErrPortRange: a plan for a URL whose port is above 65535, to which no
// TCP connection can be made.
var ErrPortRange = errors.New("port out of range")

// planPort returns an error when u's port is above 65535. Plans call it so
// that no plan ever names an address that cannot exist (portOf saturates
// such a port instead of wrapping it).
func planPort(u urlkit.URL) error {
	n, ok := portOf(u, 0)
	if !ok || n <= 65535 {
		return nil
	}
	l := locOf(u)
	p, _ := u.RawPort()
	return l.err(l.port(), urlkit.ComponentPort, ErrPortRange, "port %s is above 65535: no TCP connection can be made to it", p)
}

// ConfigFromEnv returns a Config read from environment variables through
// getenv (os.Getenv when nil): NNTPSERVER for the news server, EMAIL for the
// user's address, falling back to USER@localhost.
func ConfigFromEnv(getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	c := Config{NewsServer: getenv("NNTPSERVER"), Email: getenv("EMAIL")}
	if c.Email == "" {
		user := getenv("USER")
		if user == "" {
			user = "anonymous"
		}
		c.Email = user + "@localhost"
	}
	return c
}

// Errors of the scheme-specific grammars and of plans. Positioned errors
// are *urlkit.SyntaxError values that wrap one of these (or one of
// urlkit's sentinels), so errors.Is tells the kind of problem.
var (
	// ErrControl: a part that a plan would send on the wire decodes to a
	// control character such as CR, LF or NUL (RFC 1738 section 6).
	ErrControl = errors.New("encoded control character would be sent on the wire")
	// ErrNoAccess: the scheme defines no access method (reserved and
	// unknown schemes).
	ErrNoAccess = errors.New("no access method defined for this scheme")
	// ErrNotAllowed: the scheme does not allow this component, such as a
	// user name in an http URL (RFC 1738 3.3).
	ErrNotAllowed = errors.New("component not allowed by the scheme")
	// ErrMissing: the scheme requires a component that is absent.
	ErrMissing = errors.New("required component missing")
	// ErrBadType: an ftp ";type=" code other than a, i or d.
	ErrBadType = errors.New("invalid ftp type code")
	// ErrBadGroup: a newsgroup name that does not follow RFC 1738 5.
	ErrBadGroup = errors.New("invalid newsgroup name")
	// ErrBadArticle: an article number or message-id that does not
	// follow RFC 1738 5.
	ErrBadArticle = errors.New("invalid article")
	// ErrBadAddress: a mailto, mid or cid value that is not an RFC 822
	// addr-spec.
	ErrBadAddress = errors.New("invalid RFC 822 address")
	// ErrBadPath: a url-path that does not have the scheme's shape.
	ErrBadPath = errors.New("invalid path for the scheme")
	// ErrNotLocal: a file URL naming a host other than this machine.
	ErrNotLocal = errors.New("file URL names another host")
)

// Syntax says which of RFC 1738's two forms of scheme-specific part a
// scheme uses (schemepart = *xchar | ip-schemepart); the core parser reads
// a URL of the scheme accordingly.
type Syntax uint8

const (
	// SyntaxGeneric is the syntax of a scheme urlkit does not know (RFC
	// 1738's otherurl): a scheme-specific part that starts with "//" is
	// parsed as an ip-schemepart when it is one, and as *xchar otherwise.
	SyntaxGeneric = Syntax(schemes.Generic)
	// SyntaxOpaque is *xchar: the scheme never uses "//" (mailto, news,
	// mid, cid, urn).
	SyntaxOpaque = Syntax(schemes.Opaque)
	// SyntaxIP is the common Internet scheme syntax of RFC 1738 section
	// 3.1: "//" login ["/" url-path], with a host required.
	SyntaxIP = Syntax(schemes.IP)
	// SyntaxIPOptionalHost is SyntaxIP with the host allowed to be empty,
	// as RFC 1738 section 5's fileurl allows.
	SyntaxIPOptionalHost = Syntax(schemes.IPOptionalHost)
)

// Info describes a scheme: what the parser and the canonicaliser need
// (syntax, default port) and where it is defined.
type Info struct {
	Name        string // lower-case scheme name
	Syntax      Syntax
	DefaultPort int    // 0 when the scheme has none
	Source      string // the document that defines the scheme, e.g. "RFC 1738 3.3"
	// ReservedChars says which characters the scheme reserves, which
	// [urlkit.Canonical] and [urlkit.Equal] keep encoded in its url-path
	// and search part; the zero value (Stated false) keeps RFC 1630's
	// generic reserved set.
	ReservedChars ReservedChars
}

// ReservedChars says which characters a scheme reserves in its url-path and
// search part (for a scheme without "//", in its scheme-specific part).
// RFC 1738 2.2: only ";", "/", "?", ":", "@", "=" and "&" may be reserved
// within a scheme; an escape of any other character that needs no
// encoding means the character itself. The built-in schemes whose section
// says which they reserve (http, https, ftp, gopher, mailto, news) state
// it here; the core's canonical form follows it.
type ReservedChars struct {
	Stated bool   // the scheme's document says which characters it reserves
	Path   string // reserved in the url-path (or scheme-specific part)
	Search string // reserved in the search part after "?"
	Source string // the line that says so
}

func infoOf(i schemes.Info) Info {
	r := i.Reserved
	return Info{Name: i.Name, Syntax: Syntax(i.Syntax), DefaultPort: i.DefaultPort, Source: i.Source,
		ReservedChars: ReservedChars{Stated: r.Stated, Path: r.Path, Search: r.Search, Source: r.Source}}
}

// The registry: what Register publishes, never changed once published
// but replaced whole by Register under regMu, so that Lookup (on the path
// of every ViewOf) reads it without a lock.
var (
	regMu sync.Mutex
	reg   atomic.Pointer[registry]
)

// registry holds the registered schemes by name, and those with a built-in
// name also by their index in the core's table, where Lookup finds them
// without hashing the name or lowering its case.
type registry struct {
	byName  map[string]Scheme
	builtin [len(schemes.Builtin)]Scheme
}

// registered returns the registry's current contents (empty before the
// first Register).
func registered() *registry {
	if r := reg.Load(); r != nil {
		return r
	}
	return &noSchemes
}

var noSchemes registry

// Register makes a scheme known to [Lookup], [ViewOf] and the core parser
// ([urlkit.Parse] reads its URLs with the syntax its Info gives). It is
// meant to be called from an init function, as database/sql.Register is.
// Registering a name twice, or a name that is not a scheme name (RFC 1738
// section 5: lowalpha, digit, "+", "-", "."), panics; the check is made
// under the registry's lock, so of two concurrent registrations of one
// name exactly one succeeds.
//
// The schemes of RFC 1738 and RFC 1630 and the names RFC 1738 section 4
// reserves are registered by this package. For a reserved name with no
// view yet registered (none today), the core's syntax and default port
// stay the built-in ones whatever Info says. Names starting with "x-" are
// experimental (RFC 1738 section 4) and may be registered like any other.
func Register(s Scheme) {
	info := s.Info()
	name := strings.ToLower(info.Name)
	if !schemes.ValidName(name) {
		panic(fmt.Sprintf("scheme: Register: invalid scheme name %q", info.Name))
	}
	regMu.Lock()
	defer regMu.Unlock()
	old := registered()
	if _, dup := old.byName[name]; dup {
		panic("scheme: Register called twice for " + name)
	}
	if schemes.BuiltinIndex(name) < 0 {
		r := info.ReservedChars
		if !schemes.Add(schemes.Info{Name: name, Syntax: schemes.Syntax(info.Syntax), DefaultPort: info.DefaultPort, Source: info.Source,
			Reserved: schemes.Reserved{Stated: r.Stated, Path: r.Path, Search: r.Search, Source: r.Source}}) {
			panic("scheme: Register called twice for " + name)
		}
	}
	r := &registry{byName: make(map[string]Scheme, len(old.byName)+1), builtin: old.builtin}
	for k, v := range old.byName {
		r.byName[k] = v
	}
	r.byName[name] = s
	if i := schemes.BuiltinIndex(name); i >= 0 {
		r.builtin[i] = s
	}
	reg.Store(r)
}

// DefaultPort returns the default port of a scheme (in any case), or 0 if
// it has none or is unknown: 80 for http, 70 for gopher (RFC 1738 section
// 3). It covers the built-in schemes and those added with [Register].
func DefaultPort(name string) int { return schemes.DefaultPort(name) }

// IsExperimental reports whether a scheme name is an experimental one,
// which RFC 1738 section 4 says begin with "x-".
func IsExperimental(name string) bool {
	return len(name) > 2 && (name[0] == 'x' || name[0] == 'X') && name[1] == '-'
}

// Lookup returns the registered scheme with the given name, in any case.
func Lookup(name string) (Scheme, bool) {
	r := registered()
	if i := schemes.BuiltinIndex(name); i >= 0 && r.builtin[i] != nil {
		return r.builtin[i], true
	}
	if s, ok := r.byName[name]; ok {
		return s, true
	}
	s, ok := r.byName[strings.ToLower(name)]
	return s, ok
}

// Names returns the names of the registered schemes, sorted.
func Names() []string {
	m := registered().byName
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// For returns the scheme that reads u: the registered one, or the generic
// scheme for an unknown or experimental name.
func For(u urlkit.URL) Scheme {
	if s, ok := Lookup(u.RawScheme()); ok { // Lookup takes the name in any case
		return s
	}
	return generic{}
}

// ViewOf returns the typed view of u by the scheme that reads it (see
// [For]). A partial URL has no scheme and is an error.
func ViewOf(u urlkit.URL) (View, error) {
	if !u.IsAbsolute() {
		return nil, &urlkit.SyntaxError{Input: u.String(), Offset: 0, Component: urlkit.ComponentScheme,
			Err: urlkit.ErrMissingScheme, Detail: "a partial URL has no scheme: resolve it against a base first"}
	}
	return For(u).View(u)
}

// A ViewBuf is storage for [ViewInto]: the zero value is ready to use. It
// holds a view of each scheme that has a ViewInto path (file, http).
type ViewBuf struct {
	file File
	http HTTP
}

// ViewInto is [ViewOf] for a program that looks at one view at a time,
// many times over (urlkit parse --json, one view per line): the view of a
// file, http or https URL read by the built-in scheme is built in buf,
// without an allocation, and is valid until the next call with the same
// buf; any other URL's view is ViewOf's. The view and the error are those
// of ViewOf (TestViewIntoAgrees).
func ViewInto(buf *ViewBuf, u urlkit.URL) (View, error) {
	if u.IsAbsolute() {
		// The speed path of the schemes whose views ViewBuf holds,
		// written here rather than called through a function of the
		// scheme's: the call and the URL's copy cost 7% of parse --json's
		// view (measured against this form, both in one run).
		if b, ok := For(u).(builtin); ok {
			switch b.name {
			case "file":
				if err := checkFile(u); err != nil {
					return nil, err
				}
				buf.file.fill(u)
				return &buf.file, nil
			case "http", "https":
				if err := checkHTTP(u); err != nil {
					return nil, err
				}
				buf.http.fill(u)
				return &buf.http, nil
			}
		}
	}
	return ViewOf(u)
}

// A Validator is a [Scheme] that can check a URL against its grammar
// without building the view: Validate(u) returns exactly the error that
// View(u) returns, and nil when View succeeds. A registered scheme may
// implement it to make [Validate] cheap; every built-in scheme does.
type Validator interface {
	Validate(u urlkit.URL) error
}

// Validate checks u against the grammar of the scheme that reads it and
// returns the error [ViewOf] would return, or nil, without building the
// view: for the built-in schemes with nothing to decode to check (file,
// ftp, http, https, gopher, the reserved and unknown names) it allocates
// nothing for a valid URL. Programs that only need to know whether a URL
// is valid (urlkit canon, equal and parse) call it instead of ViewOf.
func Validate(u urlkit.URL) error {
	if !u.IsAbsolute() {
		_, err := ViewOf(u)
		return err
	}
	s := For(u)
	if c, ok := s.(Validator); ok {
		return c.Validate(u)
	}
	_, err := s.View(u)
	return err
}

// Parse parses s strictly with [urlkit.Parse] and returns its typed view.
func Parse(s string) (View, error) {
	u, err := urlkit.Parse(s)
	if err != nil {
		return nil, err
	}
	return ViewOf(u)
}

// PlanOf returns the access plan of u: ViewOf(u) followed by Plan(cfg).
func PlanOf(u urlkit.URL, cfg Config) (Plan, error) {
	v, err := ViewOf(u)
	if err != nil {
		return nil, err
	}
	p, err := v.Plan(cfg)
	if err == nil && cfg.Head {
		if _, ok := p.(headPlan); !ok {
			return nil, fmt.Errorf("%s: %w: -I (--head) asks http and https for HEAD, ftp for SIZE and MDTM, gopher for its Gopher+ attributes", u.Scheme(), ErrNoHead)
		}
	}
	return p, err
}

// A headPlan is a plan that Config.Head changes into a request for what
// is known about the resource (-I): each such plan type says so in its
// scheme's file.
type headPlan interface {
	asksHead()
}

// builtin is the Scheme of a built-in scheme: its info comes from the core
// table, its view from a function, and its check from another (nil when
// the grammar cannot be checked without building the view, as for the
// addresses of mailto and mid, which net/mail reads).
type builtin struct {
	name  string
	view  func(u urlkit.URL) (View, error)
	check func(u urlkit.URL) error
}

func (b builtin) Info() Info {
	info, _ := schemes.Lookup(b.name)
	return infoOf(info)
}

func (b builtin) View(u urlkit.URL) (View, error) { return b.view(u) }

// Validate implements [Validator].
func (b builtin) Validate(u urlkit.URL) error {
	if b.check != nil {
		return b.check(u)
	}
	_, err := b.view(u)
	return err
}

func registerBuiltin(name string, view func(u urlkit.URL) (View, error)) {
	Register(builtin{name: name, view: view})
}

// registerChecked registers a built-in scheme whose grammar check is a
// function of its own, which the view function calls before it builds.
func registerChecked(name string, view func(u urlkit.URL) (View, error), check func(u urlkit.URL) error) {
	Register(builtin{name: name, view: view, check: check})
}

// ---- positions -------------------------------------------------------------

// loc gives the offsets of a URL's components in the original input, as
// the parser found them ([urlkit.URL.Span]: a "URL:" prefix counted), and
// builds positioned errors. Every offset in this package (a part's off, an
// error's) is an offset in the input.
type loc struct {
	u urlkit.URL
}

func locOf(u urlkit.URL) loc { return loc{u: u} }

// at is where component c starts, or would start (see Span).
func (l loc) at(c urlkit.Component) int {
	start, _, _ := l.u.Span(c)
	return start
}

// input returns the original input, as far as it can be rebuilt.
func (l loc) input() string {
	if l.u.Prefixed() {
		return "URL:" + l.u.String()
	}
	return l.u.String()
}

// end is where the fragment's "#" is, or the end of the input.
func (l loc) end() int {
	_, end, _ := l.u.Span(urlkit.ComponentOpaque)
	return end
}

// urlPath is where PathAndSearch() starts.
func (l loc) urlPath() int { return l.at(urlkit.ComponentPath) }

// opaque is where Opaque() starts.
func (l loc) opaque() int { return l.at(urlkit.ComponentOpaque) }

// search is where Search() starts (after the "?").
func (l loc) search() int { return l.at(urlkit.ComponentSearch) }

func (l loc) scheme() int   { return l.at(urlkit.ComponentScheme) }
func (l loc) user() int     { return l.at(urlkit.ComponentUser) }
func (l loc) password() int { return l.at(urlkit.ComponentPassword) }
func (l loc) host() int     { return l.at(urlkit.ComponentHost) }
func (l loc) port() int     { return l.at(urlkit.ComponentPort) }

// err builds a positioned error; off is an offset in the input.
func (l loc) err(off int, c urlkit.Component, sentinel error, format string, args ...any) *urlkit.SyntaxError {
	return &urlkit.SyntaxError{Input: l.input(), Offset: off, Component: c, Err: sentinel, Detail: fmt.Sprintf(format, args...)}
}

// ---- parts -----------------------------------------------------------------

// part is one scheme-specific piece of a URL: its raw text and where it is.
type part struct {
	raw  string
	off  int // offset in the input
	comp urlkit.Component
}

// decode returns the part with its escapes decoded, as [urlkit.Unescape]
// decodes them. The core parser has checked every escape, so decoding
// cannot fail; should it, the raw text is returned.
func (p part) decode() string {
	if strings.IndexByte(p.raw, '%') < 0 {
		return p.raw
	}
	var text [128]byte // on the stack; a longer part moves it to the heap
	return string(p.appendDecoded(text[:0]))
}

// appendDecoded appends to b what decode returns.
func (p part) appendDecoded(b []byte) []byte {
	if out, ok := chars.AppendUnescape(b, p.raw); ok {
		return out
	}
	return append(b, p.raw...)
}

// decodeIf is decode for a part of a URL that has escapes, and the raw
// text otherwise.
func (p part) decodeIf(escapes bool) string {
	if !escapes {
		return p.raw
	}
	return p.decode()
}

// isControl reports whether b is a control character: 00-1F or 7F.
func isControl(b byte) bool { return b < 0x20 || b == 0x7f }

// wire decodes p for sending on a command line, refusing any escape that
// decodes to a control character (RFC 1738 section 6). what names the part
// in the message, e.g. "CWD argument".
func (p part) wire(l loc, what string) (string, error) {
	if err := p.noControl(l, what); err != nil {
		return "", err
	}
	return p.decode(), nil
}

// noControl is the check of wire without the decoding, for a caller that
// has the decoded text already.
func (p part) noControl(l loc, what string) error {
	if i, b := firstControl(p.raw); i >= 0 {
		return l.err(p.off+i, p.comp, ErrControl,
			"%%%02X decodes to control character 0x%02X in the %s: it would be sent on the wire and could inject a command (RFC 1738 6)", b, b, what)
	}
	return nil
}

// firstControl returns the index in raw of the first escape that decodes to
// a control character, and that byte, or -1.
func firstControl(raw string) (int, byte) { return firstControlBut(raw, 0x80) }

// firstControlBut is firstControl ignoring the escapes of the byte ok.
func firstControlBut(raw string, ok byte) (int, byte) {
	for i := 0; i+2 < len(raw); i++ {
		k := strings.IndexByte(raw[i:], '%')
		if k < 0 {
			break
		}
		if i += k; i+2 < len(raw) && chars.IsEscape(raw, i) {
			b := chars.Unhex(raw[i+1])<<4 | chars.Unhex(raw[i+2])
			if isControl(b) && b != ok {
				return i, b
			}
			i += 2
		}
	}
	return -1, 0
}

// split splits p at every unencoded sep, keeping offsets.
func (p part) split(sep byte) []part {
	return p.splitInto(make([]part, 0, strings.Count(p.raw, string(sep))+1), sep)
}

// splitInto is split appending to out.
func (p part) splitInto(out []part, sep byte) []part {
	start := 0
	for i := 0; i < len(p.raw); i++ {
		if p.raw[i] == sep {
			out = append(out, part{p.raw[start:i], p.off + start, p.comp})
			start = i + 1
		}
	}
	return append(out, part{p.raw[start:], p.off + start, p.comp})
}

// splitEscape splits p at the first n occurrences of the escape esc (such as
// "%09"), in any case of its hex digits.
func (p part) splitEscape(esc string, n int) []part {
	return p.splitEscapeInto(make([]part, 0, min(n, strings.Count(p.raw, "%"))+1), esc, n)
}

// splitEscapeInto is splitEscape appending to out, which a caller that
// knows n can keep on its stack.
func (p part) splitEscapeInto(out []part, esc string, n int) []part {
	start := 0
	if strings.IndexAny(esc, "abcdefABCDEF") < 0 {
		// An escape without hex letters (such as "%09") has one spelling.
		for len(out) < n {
			k := strings.Index(p.raw[start:], esc)
			if k < 0 {
				break
			}
			out = append(out, part{p.raw[start : start+k], p.off + start, p.comp})
			start += k + len(esc)
		}
		return append(out, part{p.raw[start:], p.off + start, p.comp})
	}
	for i := 0; len(out) < n; {
		k := strings.IndexByte(p.raw[i:], '%')
		if k < 0 {
			break
		}
		i += k
		if i+len(esc) > len(p.raw) {
			break
		}
		if e := p.raw[i : i+len(esc)]; e == esc || strings.EqualFold(e, esc) {
			out = append(out, part{p.raw[start:i], p.off + start, p.comp})
			i += len(esc)
			start = i
			continue
		}
		i++
	}
	return append(out, part{p.raw[start:], p.off + start, p.comp})
}

// onlyBytes returns the index of the first byte of p that is neither
// allowed by ok nor part of an escape, or -1.
func (p part) firstNot(ok func(b byte) bool) int {
	for i := 0; i < len(p.raw); i++ {
		c := p.raw[i]
		if c == '%' {
			i += 2
			continue
		}
		if !ok(c) {
			return i
		}
	}
	return -1
}

// firstNotIn is firstNot with the allowed bytes given as a table.
func (p part) firstNotIn(ok *[256]bool) int {
	for i := 0; i < len(p.raw); i++ {
		c := p.raw[i]
		if c == '%' {
			i += 2
			continue
		}
		if !ok[c] {
			return i
		}
	}
	return -1
}

// uchar reports whether b is an unreserved character (escapes are handled
// by firstNot).
func uchar(b byte) bool { return chars.Is(b, chars.Unreserved) }

// ucharOr returns a predicate for uchar plus the bytes of extra: one
// table lookup. The tables of the sets the schemes use are built once.
func ucharOr(extra string) func(byte) bool {
	for _, s := range ucharSets {
		if s.extra == extra {
			return s.ok
		}
	}
	return makeUcharOr(extra)
}

// ucharSets are the sets of the schemes' grammars: fsegment and fpath
// (ftp, file, prospero), hsegment (http), the news group, the wais path.
var ucharSets = func() []ucharSet {
	var out []ucharSet
	for _, extra := range []string{"?:@&=", ";:@&=", ";/?:&=", "?:@&"} {
		out = append(out, ucharSet{extra, makeUcharOr(extra)})
	}
	return out
}()

type ucharSet struct {
	extra string
	ok    func(byte) bool
}

func makeUcharOr(extra string) func(byte) bool {
	t := ucharTable(extra)
	return func(b byte) bool { return t[b] }
}

// ucharTable marks uchar and the bytes of extra.
func ucharTable(extra string) (t [256]bool) {
	for b := range t {
		t[b] = uchar(byte(b)) || strings.IndexByte(extra, byte(b)) >= 0
	}
	return t
}

// reservedErr is the error for a reserved byte found where the scheme's
// grammar does not allow it.
func reservedErr(l loc, p part, i int, rule string) error {
	b := p.raw[i]
	return l.err(p.off+i, p.comp, urlkit.ErrReservedChar,
		"%q is reserved here and must be encoded as %%%02X (%s)", string(rune(b)), b, rule)
}

// portOf returns the URL's port as a number, or def when it has none. The
// core parser has checked that a port is digits; a number too large for an
// int saturates.
func portOf(u urlkit.URL, def int) (int, bool) {
	p, ok := u.RawPort()
	if !ok {
		return def, false
	}
	n := 0
	for i := 0; i < len(p); i++ {
		n = n*10 + int(p[i]-'0')
		if n > 1<<30 {
			n = 1 << 30
		}
	}
	return n, true
}

// addrOf returns host:port for dialling. When u writes exactly that (its
// host, ":" and the port's digits without a leading zero), it is u's own
// text, from the parser's offsets, and nothing is allocated.
func addrOf(u urlkit.URL, host string, port int) string {
	if p, ok := u.RawPort(); ok && len(p) > 0 && len(p) <= 5 && p[0] != '0' && host == u.Host() {
		if n, _ := portOf(u, 0); n == port {
			hs, _, _ := u.Span(urlkit.ComponentHost)
			_, pe, _ := u.Span(urlkit.ComponentPort)
			if u.Prefixed() {
				hs, pe = hs-4, pe-4
			}
			return u.String()[hs:pe]
		}
	}
	return hostPort(host, port)
}

// hostPort joins a host and port for dialling.
func hostPort(host string, port int) string {
	var text [64]byte // on the stack; a longer host moves it to the heap
	return string(appendHostPort(text[:0], host, port))
}

// planSpare is room for a view's first plan, allocated with the view, so
// that parsing and planning one URL allocate the view and its plan
// together. Copies of the view share the spare; the first Plan to claim it
// uses it, and every later one gets a new plan.
type planSpare[T any] struct {
	claimed atomic.Bool
	plan    T
}

// take returns the room for a plan, zero: the spare the first time, a new
// T after that or when s is nil.
func (s *planSpare[T]) take() *T {
	if s != nil && s.claimed.CompareAndSwap(false, true) {
		return &s.plan
	}
	return new(T)
}

// appendHostPort appends host:port to b.
func appendHostPort(b []byte, host string, port int) []byte {
	return strconv.AppendInt(append(append(b, host...), ':'), int64(port), 10)
}

// noLogin returns an error when u has a user or password, which the scheme
// does not allow.
func noLogin(l loc, rule string) error {
	if _, ok := l.u.User(); ok {
		return l.err(l.user(), urlkit.ComponentUser, ErrNotAllowed, "no user name or password is allowed in a %s URL (%s)", l.u.Scheme(), rule)
	}
	return nil
}

// noSearch returns an error when u has a "?" search part the scheme has no
// place for.
func noSearch(l loc, rule string) error {
	if _, ok := l.u.Search(); ok {
		return l.err(l.search()-1, urlkit.ComponentSearch, ErrNotAllowed, "a %s URL has no search part (%s)", l.u.Scheme(), rule)
	}
	return nil
}

// relaxers holds, per scheme name, the rules of RFC 1738 that the
// lenient reading relaxes for that scheme (see [Relaxed]).
var relaxers = map[string]func(u urlkit.URL) []urlkit.Warning{}

// Relaxed lists the rules of u's scheme that u breaks and that are
// relaxed because u is of the extended syntax ([urlkit.URL.Extended], as
// the lenient reading returns every URL), each as a warning with its
// offset in the text u was parsed from: a user name and password in an
// http or https URL, which RFC 1738 3.3 does not allow and RFC 3986 3.2.1
// and browsers do. [Validate] and [ViewOf] accept such a URL. For a URL of
// RFC 1738's syntax it returns nil: every rule holds or is an error.
func Relaxed(u urlkit.URL) []urlkit.Warning {
	if !u.Extended() || !u.IsAbsolute() {
		return nil
	}
	if f := relaxers[u.Scheme()]; f != nil {
		return f(u)
	}
	return nil
}
