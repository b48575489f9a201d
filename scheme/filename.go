package scheme

import (
	"errors"
	"fmt"
	"strings"

	"github.com/urlkit/urlkit"
)

// ErrNoFileName is wrapped by the error of [FileName] for a URL whose last
// segment cannot name a file.
var ErrNoFileName = errors.New("the URL names no file")

// FileName returns the name a program saving the resource of u would give
// its file, as `urlkit get -O` does: the last segment of what the URL
// names, decoded. For ftp it is the file name RETR asks for (RFC 1738
// 3.2.2: the last segment), for gopher the last "/"-segment of the
// selector, for http and https the last segment of the path (RFC 1738
// 3.3), for file the last element of the local path, for nntp the article
// number (RFC 1738 3.7).
//
// A name that is empty, "." or "..", or holds "/", NUL or another control
// character, is no file name (a URL ending in "/" names a directory; a
// decoded "%2F" or "%0A" would escape the directory or garble a listing):
// the error wraps [ErrNoFileName] and quotes the segment, and the caller
// asks for a name instead. So is every URL whose scheme names no file: a
// news URL, an nntp URL without an article, mailto, telnet.
//
// Each scheme whose URLs name a file says which segment in its own file
// (a fileName method: the namedFile interface).
func FileName(u urlkit.URL) (string, error) {
	v, err := ViewOf(u)
	if err != nil {
		return "", err
	}
	n, ok := v.(namedFile)
	if !ok {
		return "", fmt.Errorf("a %s URL names no file to save: %w", u.Scheme(), ErrNoFileName)
	}
	last, err := n.fileName()
	if err != nil {
		return "", err
	}
	switch {
	case last == "", last == ".", last == "..":
		return "", fmt.Errorf("the URL's last path segment %q is no file name: %w", last, ErrNoFileName)
	case strings.ContainsAny(last, "/\x00") || strings.ContainsFunc(last, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "", fmt.Errorf("the URL's last path segment %q holds \"/\" or a control character: %w", last, ErrNoFileName)
	}
	return last, nil
}

// A namedFile is a view whose URL names a file: fileName returns its last
// segment, decoded, before FileName checks that it can name a file.
type namedFile interface {
	fileName() (string, error)
}
