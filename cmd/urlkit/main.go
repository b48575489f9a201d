// Command urlkit parses, checks, compares and explains URLs as RFC 1630 and
// RFC 1738 define them.
//
// Usage:
//
//	urlkit <command> [flags] [URL...]
//
// Each command reads its URLs from the arguments, from --url-file files, or
// one per line from standard input when there are neither, and writes a
// result per URL as it goes, in input order. Flags may come before or after
// the URLs; "--" ends them. Run "urlkit help" for the list of commands and
// "urlkit help COMMAND" (or "urlkit COMMAND --help") for one command's
// flags.
//
// Exit status: 0 when every input was valid (for equal: equivalent), 1 when
// any was not, 2 for a usage error, 3 when get cannot retrieve a protocol.
// Errors are written to standard error.
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A command is one subcommand of urlkit. Each lives in its own file and
// registers itself from an init function.
type command struct {
	name    string
	summary string // one line for "urlkit help"
	usage   string // the argument synopsis, after the command name
	// run executes the command with its flags already parsed into fs.
	run   func(e *env, fs *flag.FlagSet, args []string) int
	flags func(fs *flag.FlagSet) // defines the command's flags
	// lines marks a command that reads its inputs through the line engine:
	// it gets --url-file, --workers and --max-line.
	lines bool
	// raw: the engine keeps lines exactly (strings, not URLs).
	raw bool
	// single: the inputs are handled one at a time, in order (get): no
	// --workers.
	single bool
	// aliases maps a short flag name to the long one it stands for.
	aliases map[string]string
	// notes is printed by help after the flags: rules a flag's line cannot
	// hold (one paragraph, lines under 80 columns, ending in a newline).
	notes string
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("urlkit: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// env is what a command may touch: its streams. Tests supply their own.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// recycled, when not nil, is given each batch's line buffer once the
	// batch's output is written, just before the engine reuses it for
	// later lines (lines.go). Tests overwrite it there, so that a
	// handler that kept a line past its call (see handler) shows in the
	// output; main leaves it nil.
	recycled func(data []byte)
	// dial, when not nil, is the dialer of get (access.Options.Dial):
	// tests route a server seen at a public address to a loopback one.
	// main leaves it nil.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	os.Exit(run(e, os.Args[1:]))
}

// run runs urlkit with the given arguments and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 && strings.HasPrefix(args[1], "-") {
			return helpFormat(e, args[1:])
		}
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				unknownCommand(e, "urlkit help: ", args[1])
				return exitUsage
			}
			io.WriteString(e.stdout, helpText(c))
			return exitOK
		}
		usage(e.stdout)
		return exitOK
	case "--version", "-version", "version":
		io.WriteString(e.stdout, versionText())
		return exitOK
	}
	c, ok := commands[name]
	if !ok {
		unknownCommand(e, "urlkit: ", name)
		return exitUsage
	}
	fs := newFlagSet(c)
	pos, err := parseFlags(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.WriteString(e.stdout, helpText(c))
			return exitOK
		}
		io.WriteString(e.stderr, "urlkit "+c.name+": "+err.Error()+"\nusage: urlkit "+c.name+" "+c.usage+"\nRun 'urlkit help "+c.name+"' for the flags.\n")
		return exitUsage
	}
	return c.run(e, fs, pos)
}

// unknownCommand reports a name that is no command: with the commands
// nearest to it when there are any, else with the list of commands.
func unknownCommand(e *env, prefix, name string) {
	if len(name) > 1 && name[0] == '-' {
		io.WriteString(e.stderr, prefix+strconv.Quote(name)+" is a flag, not a command: the command comes first (urlkit COMMAND [flags] [URL...])\nRun 'urlkit help' for the commands.\n")
		return
	}
	names := make([]string, 0, len(commands)+1)
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	if hint := didYouMean(suggest(name, append(names, "help")), func(s string) string { return s }); hint != "" {
		io.WriteString(e.stderr, prefix+"unknown command "+strconv.Quote(name)+hint+"\nRun 'urlkit help' for the commands.\n")
		return
	}
	io.WriteString(e.stderr, prefix+"unknown command "+strconv.Quote(name)+"\n")
	usage(e.stderr)
}

// A flagError is a command line's flag that cannot be read, in the
// command line's own words (never the flag package's).
type flagError struct{ msg string }

func (e *flagError) Error() string { return e.msg }

// parseFlags parses flags wherever they appear among the arguments and
// returns the others in order. A flag is written -name or --name, its
// value joined by "=" or, for a flag that is not a switch, as the next
// argument; "--" ends the flags (everything after it is an argument, even
// when it starts with "-"), and a lone "-" is an argument. -h, -help and
// --help ask for help (flag.ErrHelp). Every error names the flag as
// written and what was wrong, with the flags nearest to an unknown name.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(pos, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name := a[1:]
		if name[0] == '-' {
			name = name[1:]
		}
		name, value, hasValue := strings.Cut(name, "=")
		if name == "" || name[0] == '-' {
			return nil, &flagError{"bad flag syntax " + strconv.Quote(a) + " (flags are written -x, --name or --name=VALUE; \"--\" ends them)"}
		}
		f := fs.Lookup(name)
		if f == nil {
			if name == "h" || name == "help" {
				return nil, flag.ErrHelp
			}
			return nil, &flagError{"unknown flag " + flagSpelling(name) + didYouMean(suggest(name, flagNames(fs)), flagSpelling)}
		}
		if isSwitch(f) {
			if !hasValue {
				value = "true"
			} else if _, err := strconv.ParseBool(value); err != nil {
				return nil, &flagError{flagSpelling(name) + " is a switch: it takes no value (or =true, =false), not " + strconv.Quote(value)}
			}
		} else if !hasValue {
			if i+1 >= len(args) {
				arg, _ := flag.UnquoteUsage(f)
				return nil, &flagError{flagSpelling(name) + " needs a value (" + strings.ToUpper(arg) + ")"}
			}
			i++
			value = args[i]
		}
		if err := fs.Set(name, value); err != nil {
			return nil, &flagError{flagSpelling(name) + ": " + valueProblem(f, value, err)}
		}
	}
	return pos, nil
}

// isSwitch reports whether f is a boolean flag, given without a value.
func isSwitch(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// flagNames returns the names of fs's flags, sorted.
func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// valueProblem says what is wrong with value for flag f, whose Set
// refused it with err: for the flag package's own kinds (numbers,
// durations), what a value looks like; for urlkit's flags, their own
// message.
func valueProblem(f *flag.Flag, value string, err error) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return err.Error()
	}
	switch g.Get().(type) {
	case int, int64, uint, uint64:
		return strconv.Quote(value) + " is not a whole number"
	case float64:
		return strconv.Quote(value) + " is not a number"
	case time.Duration:
		return strconv.Quote(value) + " is not a duration (a number with a unit: 500ms, 30s, 2m, 1h30m)"
	}
	return err.Error()
}

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("urlkit "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	if c.flags != nil {
		c.flags(fs)
	}
	if c.lines {
		fs.Var(new(stringList), "url-file", "read inputs from `FILE`, one per line (\"-\": standard input); may be repeated")
		if !c.single {
			// get has neither: one URL at a time, and its own --max-line
			// (a protocol reply line's limit).
			fs.Int("workers", 0, "process inputs on `N` goroutines; output stays in input order (0: one per CPU, GOMAXPROCS)")
			fs.Int("max-line", defaultMaxLine, "the longest input line in `BYTES`; a longer one is reported and skipped")
		}
	}
	return fs
}

// lineOptsOf returns the engine settings from a command's flags.
func lineOptsOf(c *command, fs *flag.FlagSet) lineOpts {
	o := lineOpts{raw: c.raw}
	if f := fs.Lookup("url-file"); f != nil {
		o.urlFiles = *f.Value.(*stringList)
		if !c.single {
			o.workers = f2int(fs, "workers")
			o.maxLine = f2int(fs, "max-line")
		}
	}
	return o
}

func f2int(fs *flag.FlagSet, name string) int {
	return fs.Lookup(name).Value.(flag.Getter).Get().(int)
}

func flagBool(fs *flag.FlagSet, name string) bool {
	return fs.Lookup(name).Value.(flag.Getter).Get().(bool)
}

// engineFor returns the line engine for command name with its flags.
func engineFor(e *env, name string, fs *flag.FlagSet) *engine {
	return newEngine(e, name, lineOptsOf(commands[name], fs))
}

// helpText is a command's help: synopsis, summary and every flag with one
// spelling ("--json"; "-o" for one-letter flags) and its default.
func helpText(c *command) string {
	var b strings.Builder
	b.WriteString("usage: urlkit " + c.name + " " + c.usage + "\n\n" + c.summary + "\n")
	type line struct{ left, right string }
	var lines []line
	width := 0
	for _, f := range commandFlags(c) {
		left := strings.Join(f.spellings(), ", ")
		if f.arg != "" {
			left += " " + f.arg
		}
		usage := f.usage
		if f.def != "" {
			usage += " (default " + f.def + ")"
		} else if f.name == "workers" {
			usage += " (here " + strconv.Itoa(runtime.GOMAXPROCS(0)) + ")"
		}
		lines = append(lines, line{left, usage})
		width = max(width, len(left))
	}
	if len(lines) > 0 {
		b.WriteString("\nflags:\n")
		for _, l := range lines {
			b.WriteString("  " + l.left + strings.Repeat(" ", width-len(l.left)+2) + l.right + "\n")
		}
	}
	b.WriteString("  " + "--help" + strings.Repeat(" ", max(width-len("--help"), 0)+2) + "print this help on standard output\n")
	if c.notes != "" {
		b.WriteString("\n" + c.notes)
	}
	if c.lines {
		b.WriteString("\nInputs come from the arguments, the --url-file files, or standard input\n" +
			"when there are neither. An argument is taken exactly as given (a space\n" +
			"around it is part of it); a line of a stream is taken" +
			map[bool]string{true: " as it is.\n", false: " without its\nsurrounding white space, and a blank line is skipped.\n"}[c.raw] +
			"Flags may come before or after the arguments; \"--\" ends them.\n")
	}
	return b.String()
}

func flagSpelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// commandGroups sorts the commands by task for "urlkit help". A command
// registered without a place here is listed under "Other commands"
// (TestHelpListsEveryCommand keeps the table whole).
var commandGroups = []struct {
	title string
	names []string
}{
	{"Read and check URLs", []string{"parse", "check", "canon", "equal"}},
	{"Change and compose URLs", []string{"edit", "resolve", "relative", "escape", "unescape"}},
	{"Fetch what a URL names", []string{"plan", "get", "serve", "index"}},
	{"Find URLs in text", []string{"extract"}},
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("usage: urlkit <command> [flags] [URL...]\n")
	b.WriteString("\nURLs come from the arguments, --url-file files, or one per line on standard input.\n")
	listed := map[string]bool{}
	group := func(title string, names []string) {
		b.WriteString("\n" + title + ":\n")
		for _, n := range names {
			listed[n] = true
			b.WriteString("  " + n + strings.Repeat(" ", max(10-len(n), 0)+1) + commands[n].summary + "\n")
		}
	}
	for _, g := range commandGroups {
		var names []string
		for _, n := range g.names {
			if commands[n] != nil {
				names = append(names, n)
			}
		}
		if len(names) > 0 {
			group(g.title, names)
		}
	}
	var other []string
	for n := range commands {
		if !listed[n] {
			other = append(other, n)
		}
	}
	if len(other) > 0 {
		sort.Strings(other)
		group("Other commands", other)
	}
	b.WriteString("\nRun 'urlkit help COMMAND' (or 'urlkit COMMAND --help') for a command's flags,\n" +
		"'urlkit help --man' for the manual page, 'urlkit help --completion bash|zsh|fish'\n" +
		"for a completion script, 'urlkit --version' for the version.\n")
	io.WriteString(w, b.String())
}

// versionText is the module version and VCS revision the binary was built
// from, as the Go toolchain recorded them.
func versionText() string {
	v := "(devel)"
	rev, dirty := "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	s := "urlkit " + v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		s += " " + rev
		if dirty {
			s += "+modified"
		}
	}
	return s + " " + runtime.Version() + "\n"
}
