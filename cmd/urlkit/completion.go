package main

import (
	"io"
	"strconv"
	"strings"
)

// helpFormat answers "urlkit help --man" and "urlkit help --completion
// SHELL": the man page and the completion scripts, written from the same
// flag sets as the help (commandFlags).
func helpFormat(e *env, args []string) int {
	switch args[0] {
	case "--man", "-man":
		if len(args) == 1 {
			io.WriteString(e.stdout, manPage())
			return exitOK
		}
	case "--completion", "-completion":
		if len(args) == 2 {
			if s, ok := completionScripts[args[1]]; ok {
				io.WriteString(e.stdout, s())
				return exitOK
			}
			io.WriteString(e.stderr, "urlkit help: --completion: no completion for "+strconv.Quote(args[1])+" (bash, zsh or fish)\n")
			return exitUsage
		}
	}
	io.WriteString(e.stderr, "urlkit help: "+strconv.Quote(strings.Join(args, " "))+": usage: urlkit help [COMMAND], urlkit help --man, urlkit help --completion bash|zsh|fish\n")
	return exitUsage
}

var completionScripts = map[string]func() string{
	"bash": bashCompletion,
	"zsh":  zshCompletion,
	"fish": fishCompletion,
}

// takesFiles reports whether a command's arguments are file names rather
// than URLs (extract: [FILE...]).
func takesFiles(c *command) bool {
	return strings.Contains(c.usage, "FILE")
}

// helpWords are what may follow "urlkit help": the commands, then the
// formats.
func helpWords() []string {
	var w []string
	for _, c := range orderedCommands() {
		w = append(w, c.name)
	}
	return append(w, "--man", "--completion")
}

// bashCompletion is the completion function for bash: the command first,
// then the command's flags after "-", a file name after a flag whose
// value is a FILE (and as an argument of a command that reads files).
func bashCompletion() string {
	var b strings.Builder
	b.WriteString(`# bash completion for urlkit: written by "urlkit help --completion bash" from
# the command line's own flag definitions (cmd/urlkit/completion.go).
# Install: urlkit help --completion bash > /etc/bash_completion.d/urlkit
# (or source it from ~/.bashrc).
_urlkit() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    if ((COMP_CWORD == 1)); then
        COMPREPLY=($(compgen -W '`)
	var names []string
	for _, c := range orderedCommands() {
		names = append(names, c.name)
	}
	b.WriteString(strings.Join(names, " ") + ` help --help --version' -- "$cur"))
        return
    fi
    local flags="" values="" files="" args=""
    case ${COMP_WORDS[1]} in
    help | -h | -help | --help)
        if ((COMP_CWORD == 2)); then
            COMPREPLY=($(compgen -W '` + strings.Join(helpWords(), " ") + `' -- "$cur"))
        elif [[ $prev == --completion ]]; then
            COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
        fi
        return
        ;;
`)
	for _, c := range orderedCommands() {
		var flags, values, files, words []string
		for _, f := range commandFlags(c) {
			for _, s := range f.spellings() {
				flags = append(flags, s)
				if f.arg != "" {
					values = append(values, s)
					if f.arg == "FILE" {
						files = append(files, s)
					}
				}
				if len(f.values) > 0 {
					words = append(words, s+") COMPREPLY=($(compgen -W '"+strings.Join(f.values, " ")+"' -- \"$cur\")); return ;;")
				}
			}
		}
		b.WriteString("    " + c.name + ")\n")
		b.WriteString("        flags='" + strings.Join(flags, " ") + " --help'\n")
		if len(values) > 0 {
			b.WriteString("        values='" + strings.Join(values, " ") + "'\n")
		}
		if len(files) > 0 {
			b.WriteString("        files='" + strings.Join(files, " ") + "'\n")
		}
		if takesFiles(c) {
			b.WriteString("        args=files\n")
		}
		if len(words) > 0 {
			b.WriteString("        case $prev in\n")
			for _, w := range words {
				b.WriteString("        " + w + "\n")
			}
			b.WriteString("        esac\n")
		}
		b.WriteString("        ;;\n")
	}
	b.WriteString(`    *)
        return
        ;;
    esac
    if [[ " $values " == *" $prev "* ]]; then
        if [[ " $files " == *" $prev "* ]]; then
            COMPREPLY=($(compgen -f -- "$cur"))
        fi
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    elif [[ $args == files ]]; then
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _urlkit urlkit
`)
	return b.String()
}

// zshQuote quotes s for a single-quoted zsh word.
func zshQuote(s string) string {
	return strings.ReplaceAll(s, "'", `'\''`)
}

// zshDescription escapes a flag's help for an _arguments description:
// brackets are quoted with a backslash.
func zshDescription(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, "[", `\[`)
	return zshQuote(strings.ReplaceAll(s, "]", `\]`))
}

// zshCompletion is the completion function for zsh (_arguments per
// command).
func zshCompletion() string {
	var b strings.Builder
	b.WriteString(`#compdef urlkit
# zsh completion for urlkit: written by "urlkit help --completion zsh" from
# the command line's own flag definitions (cmd/urlkit/completion.go).
# Install: urlkit help --completion zsh > "${fpath[1]}/_urlkit"

_urlkit() {
    local -a commands
    commands=(
`)
	for _, c := range orderedCommands() {
		b.WriteString("        '" + c.name + ":" + zshQuote(strings.ReplaceAll(c.summary, ":", `\:`)) + "'\n")
	}
	b.WriteString(`        'help:print the commands, a command'\''s flags, the man page or a completion script'
    )
    if ((CURRENT == 2)); then
        _describe -t commands 'urlkit command' commands
        return
    fi
    local cmd=${words[2]}
    words=("${words[@]:1}")
    ((CURRENT--))
    curcontext="${curcontext%:*:*}:urlkit-$cmd:"
    case $cmd in
    help)
        _arguments '1:command:(` + strings.Join(helpWords(), " ") + `)' '2:shell:(bash zsh fish)'
        ;;
`)
	for _, c := range orderedCommands() {
		b.WriteString("    " + c.name + ")\n        _arguments -s \\\n")
		for _, f := range commandFlags(c) {
			desc := "[" + zshDescription(f.usage) + "]"
			value := ""
			if f.arg != "" {
				action := " "
				if f.arg == "FILE" {
					action = "_files"
				} else if len(f.values) > 0 {
					action = "(" + strings.Join(f.values, " ") + ")"
				}
				value = ":" + zshQuote(strings.ToLower(f.arg)) + ":" + action
			}
			sp := f.spellings()
			if len(sp) == 2 {
				// Either spelling, each excluding the other.
				b.WriteString("            '(" + sp[0] + " " + sp[1] + ")'{" + sp[0] + "," + sp[1] + "}'" + desc + value + "' \\\n")
			} else if f.arg != "" {
				b.WriteString("            '*" + sp[0] + desc + value + "' \\\n")
			} else {
				b.WriteString("            '" + sp[0] + desc + "' \\\n")
			}
		}
		b.WriteString("            '--help[print this help on standard output]' \\\n")
		if takesFiles(c) {
			b.WriteString("            '*:file:_files'\n")
		} else {
			b.WriteString("            '*:URL: '\n")
		}
		b.WriteString("        ;;\n")
	}
	b.WriteString(`    esac
}

_urlkit "$@"
`)
	return b.String()
}

// fishQuote quotes s as a single-quoted fish string.
func fishQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

// fishCompletion is the completion script for fish: one complete line per
// command and per flag.
func fishCompletion() string {
	var b strings.Builder
	b.WriteString(`# fish completion for urlkit: written by "urlkit help --completion fish" from
# the command line's own flag definitions (cmd/urlkit/completion.go).
# Install: urlkit help --completion fish > ~/.config/fish/completions/urlkit.fish
complete -c urlkit -f
`)
	for _, c := range orderedCommands() {
		b.WriteString("complete -c urlkit -n __fish_use_subcommand -a " + c.name + " -d " + fishQuote(c.summary) + "\n")
	}
	b.WriteString("complete -c urlkit -n __fish_use_subcommand -a help -d " + fishQuote("print the commands, a command's flags, the man page or a completion script") + "\n")
	b.WriteString("complete -c urlkit -n '__fish_seen_subcommand_from help' -a " + fishQuote(strings.Join(helpWords(), " ")) + "\n")
	for _, c := range orderedCommands() {
		cond := " -n '__fish_seen_subcommand_from " + c.name + "'"
		if takesFiles(c) {
			b.WriteString("complete -c urlkit" + cond + " -F\n")
		}
		for _, f := range commandFlags(c) {
			line := "complete -c urlkit" + cond
			if f.short != "" {
				line += " -s " + f.short
			}
			if len(f.name) == 1 {
				line += " -s " + f.name
			} else {
				line += " -l " + f.name
			}
			if f.arg != "" {
				line += " -r"
				if f.arg == "FILE" {
					line += " -F"
				} else if len(f.values) > 0 {
					line += " -xa " + fishQuote(strings.Join(f.values, " "))
				}
			}
			b.WriteString(line + " -d " + fishQuote(f.usage) + "\n")
		}
		b.WriteString("complete -c urlkit" + cond + " -l help -d " + fishQuote("print this help on standard output") + "\n")
	}
	return b.String()
}
