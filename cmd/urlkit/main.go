// Command urlkit parses, checks, compares and explains URLs as RFC 1630 and
// RFC 1738 define them.
//
// Usage:
//
//	urlkit <command> [flags] [URL...]
//
// Each command reads its URLs from the arguments, or one per line from
// standard input when none is given, and writes a result per URL as it
// goes. Run "urlkit help" for the list of commands and "urlkit <command>
// --help" for one command's flags.
//
// Exit status: 0 when every input was valid (for equal: equivalent), 1 when
// any was not, 2 for a usage error. Errors are written to standard error.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
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
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fs := newFlagSet(e, c)
				fs.SetOutput(e.stdout)
				fs.Usage()
				return exitOK
			}
		}
		usage(e.stdout)
		return exitOK
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "urlkit: unknown command %q\n", name)
		usage(e.stderr)
		return exitUsage
	}
	fs := newFlagSet(e, c)
	if err := fs.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	return c.run(e, fs, fs.Args())
}

func newFlagSet(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("urlkit "+c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if c.flags != nil {
		c.flags(fs)
	}
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "usage: urlkit %s %s\n\n%s\n", c.name, c.usage, c.summary)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(out, "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: urlkit <command> [flags] [URL...]")
	fmt.Fprintln(w, "\nURLs come from the arguments, or one per line on standard input.")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'urlkit <command> --help' for a command's flags.")
}

// eachInput calls f for every argument, or, when there are none, for every
// line of standard input as it arrives (without its line ending). It stops
// early if f returns false.
func eachInput(e *env, args []string, f func(s string) bool) error {
	if len(args) > 0 {
		for _, a := range args {
			if !f(a) {
				return nil
			}
		}
		return nil
	}
	sc := bufio.NewScanner(e.stdin)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if !f(line) {
			return nil
		}
		if fl, ok := e.stdout.(interface{ Flush() error }); ok {
			fl.Flush()
		}
	}
	return sc.Err()
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}
