package gateway

import "strings"

// The gateway never shows a URL's password, and never puts a URL's user
// name or password into a page (RFC 1738 section 6 warns against passwords
// in URLs; a page may be cached, shared or shown to someone else). These
// functions work on text, so they also cover URLs that do not parse.

// stripUserinfo returns s with the user and password of every
// "scheme://userinfo@" in it removed. It is used for text that goes into
// pages and error bodies.
func stripUserinfo(s string) string {
	return rewriteUserinfo(s, func(string) string { return "" })
}

// rewriteUserinfo finds each "://" in s and, when the authority after it
// holds an "@", replaces the userinfo before the last "@" with f's result
// (the "@" is dropped when f returns "").
func rewriteUserinfo(s string, f func(userinfo string) string) string {
	var b strings.Builder
	rest := s
	changed := false
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		start := i + 3
		end := start
		for end < len(rest) && !strings.ContainsRune("/?# \t\r\n\"'<>", rune(rest[end])) {
			end++
		}
		at := strings.LastIndexByte(rest[start:end], '@')
		if at < 0 {
			b.WriteString(rest[:end])
			rest = rest[end:]
			continue
		}
		changed = true
		b.WriteString(rest[:start])
		if r := f(rest[start : start+at]); r != "" {
			b.WriteString(r)
			b.WriteByte('@')
		}
		b.WriteString(rest[start+at+1 : end])
		rest = rest[end:]
	}
	if !changed {
		return s
	}
	b.WriteString(rest)
	return b.String()
}

// scrub removes from msg the user and password of the URL raw, wherever
// they appear (a parser's message may quote a component alone). A
// password too short to be replaced without mangling the message makes
// the whole message generic.
func scrub(msg string, user, password string) string {
	msg = stripUserinfo(msg)
	for _, secret := range []string{password, user} {
		if secret == "" || !strings.Contains(msg, secret) {
			continue
		}
		if len(secret) < 4 {
			return "the URL is not acceptable (details withheld because they would show its user or password)"
		}
		msg = strings.ReplaceAll(msg, secret, "****")
	}
	return msg
}

// userinfoOf returns the user and password written in the authority of
// the URL text raw, without parsing it strictly.
func userinfoOf(raw string) (user, password string) {
	i := strings.Index(raw, "://")
	if i < 0 {
		return "", ""
	}
	auth := raw[i+3:]
	if j := strings.IndexAny(auth, "/?#"); j >= 0 {
		auth = auth[:j]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return "", ""
	}
	user, password, _ = strings.Cut(auth[:at], ":")
	return user, password
}
