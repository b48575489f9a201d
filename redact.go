package urlkit

import "strings"

// RedactedPassword is what [URL.Redacted] and [RedactString] write in place
// of a password, as net/url's URL.Redacted does.
const RedactedPassword = "xxxxx"

// Redacted returns the URL's text with the password, if the URL has one,
// replaced by "xxxxx", so that the URL can be shown in a log or a message
// (RFC 1738 section 3.1 allows a password in a URL; its security
// considerations, section 6, warn that a URL is seen by many). An empty
// password is replaced too, so the output does not tell an empty password
// from a real one. A URL without a password is returned as it is, without
// allocating. Like [URL.String], the result omits any "URL:" prefix.
func (u URL) Redacted() string {
	if u.flags&hasPassword == 0 {
		return u.s
	}
	return u.s[:u.pass.start] + RedactedPassword + u.s[u.pass.end:]
}

// RedactString masks the passwords in s, which need not be a URL: an
// input that failed to parse, an error message quoting one, a line of a
// log. It is meant for text that [URL.Redacted] cannot be used on.
//
// When s parses with [ParseRefExtended] (which reads every URL [ParseRef]
// reads, and IPv6 hosts too), the result is [URL.Redacted]'s. Otherwise
// every "//" that starts a word or follows a ":" is taken to start a login,
// and a password is the text between the first ":" after it and an "@".
// The "@" is the last one before the first "/", "?" or "#" (as net/url
// reads a login); when there is none there, it is the last "@" of the word
// (the text up to white space or one of `"<>'`), so that a password with a
// stray "/" or "?" is still masked. RedactString errs on the side of
// masking: in a malformed URL such as "http://h:80/a@b" it masks "80/a".
// Text with nothing to mask is returned as it is, without allocating.
func RedactString(s string) string {
	if strings.IndexByte(s, '@') < 0 {
		return s
	}
	if u, err := ParseRefExtended(s); err == nil {
		if u.prefix != 0 {
			return s[:u.prefix] + u.Redacted()
		}
		return u.Redacted()
	}
	var b strings.Builder
	last := 0 // s[:last] has been written to b
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '/' || s[i+1] != '/' || (i > 0 && s[i-1] != ':' && !isWordBreak(s[i-1])) {
			continue
		}
		a := i + 2
		end := a
		for end < len(s) && !isWordBreak(s[end]) {
			end++
		}
		word := s[a:end]
		colon := strings.IndexByte(word, ':')
		at := -1
		if k := strings.IndexAny(word, "/?#"); k >= 0 {
			at = strings.LastIndexByte(word[:k], '@')
		} else {
			at = strings.LastIndexByte(word, '@')
		}
		if at < 0 {
			at = strings.LastIndexByte(word, '@')
		}
		if at < 0 || colon < 0 || colon > at {
			i = end - 1
			continue
		}
		b.WriteString(s[last : a+colon+1])
		b.WriteString(RedactedPassword)
		last = a + at
		i = end - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isWordBreak reports whether c ends a word for RedactString: white space
// or a character that commonly delimits a URL in text.
func isWordBreak(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '"', '\'', '<', '>':
		return true
	}
	return false
}
