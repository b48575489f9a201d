package main

// The names of a URL's parts, one set for every command: escape --set,
// edit's --set, --append, --delete and --keep, and the fields of --format.
// Each is the name urlkit.Component gives the part in messages, with
// "opaque" for the scheme-specific part of a URL without "//" and trurl's
// "query" for the search part.

import (
	"strings"

	"github.com/urlkit/urlkit"
)

// urlParts are the parts by name, in the order of a URL.
var urlParts = []struct {
	name string
	c    urlkit.Component
}{
	{urlkit.ComponentScheme.String(), urlkit.ComponentScheme},
	{urlkit.ComponentUser.String(), urlkit.ComponentUser},
	{urlkit.ComponentPassword.String(), urlkit.ComponentPassword},
	{urlkit.ComponentHost.String(), urlkit.ComponentHost},
	{urlkit.ComponentPort.String(), urlkit.ComponentPort},
	{urlkit.ComponentPath.String(), urlkit.ComponentPath},
	{urlkit.ComponentSearch.String(), urlkit.ComponentSearch},
	{urlkit.ComponentFragment.String(), urlkit.ComponentFragment},
	{"opaque", urlkit.ComponentOpaque},
}

// partAliases are other spellings of a part's name: trurl's.
var partAliases = map[string]string{"query": "search"}

// partByName returns the part a name (or alias) names.
func partByName(name string) (urlkit.Component, bool) {
	if a, ok := partAliases[name]; ok {
		name = a
	}
	for _, p := range urlParts {
		if p.name == name {
			return p.c, true
		}
	}
	return urlkit.ComponentNone, false
}

// partNameList lists the part names for messages and help: "scheme,
// user, password, host, port, path, search (or query), fragment, opaque".
func partNameList() string {
	names := make([]string, len(urlParts))
	for i, p := range urlParts {
		names[i] = p.name
		for a, n := range partAliases {
			if n == p.name {
				names[i] += " (or " + a + ")"
			}
		}
	}
	return strings.Join(names, ", ")
}

// matchGlob reports whether s matches the shell-style pattern: "*" any
// run of bytes, "?" one byte, "\" makes the next byte literal. Unlike
// path.Match, "*" also matches "/": search keys are no file names.
func matchGlob(pattern, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for sx < len(s) {
		switch {
		case px < len(pattern) && pattern[px] == '*':
			starP, starS = px, sx
			px++
			continue
		case px < len(pattern) && pattern[px] == '?':
			px++
			sx++
			continue
		case px+1 < len(pattern) && pattern[px] == '\\' && pattern[px+1] == s[sx]:
			px += 2
			sx++
			continue
		case px < len(pattern) && pattern[px] != '\\' && pattern[px] == s[sx]:
			px++
			sx++
			continue
		}
		if starP < 0 {
			return false
		}
		starS++
		px, sx = starP+1, starS
	}
	for px < len(pattern) && pattern[px] == '*' {
		px++
	}
	return px == len(pattern)
}
