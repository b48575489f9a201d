package edit

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urlkit/urlkit"
)

// TestSuggestionsAreValid: a value an error suggests writing instead is
// itself taken (issue 37: Set(path, "/a b") must not suggest "a b", which
// has a space, RFC 1738 2.2). Every quoted text after "write" in an
// error's message is tried in the same component.
func TestSuggestionsAreValid(t *testing.T) {
	u := urlkit.MustParse("http://h.example/x")
	write := regexp.MustCompile(`(?:write|written) ("(?:[^"\\]|\\.)*")`)
	for _, tt := range []struct {
		c    urlkit.Component
		text string
	}{
		{urlkit.ComponentPath, "/a b"},
		{urlkit.ComponentPath, "/a/b"},
		{urlkit.ComponentPath, "/a%zz"},
		{urlkit.ComponentPath, "/a?b"},
		{urlkit.ComponentPath, "/a#b"},
		{urlkit.ComponentPath, "/ü"},
		{urlkit.ComponentPath, "//a"},
		{urlkit.ComponentPath, "/"},
		{urlkit.ComponentHost, "bücher.de"},
		{urlkit.ComponentHost, "[::1]"},
		{urlkit.ComponentPort, ""},
		{urlkit.ComponentScheme, ""},
	} {
		_, err := Set(u, tt.c, tt.text)
		if err == nil {
			continue
		}
		n := 0
		for _, m := range write.FindAllStringSubmatch(err.Error(), -1) {
			s, uerr := strconv.Unquote(m[1])
			if uerr != nil || s == tt.text {
				continue
			}
			n++
			if _, err2 := Set(u, tt.c, s); err2 != nil {
				t.Errorf("Set(%s, %q): %v\nsuggests %q, which Set refuses: %v", tt.c, tt.text, err, s, err2)
			}
		}
		if tt.c == urlkit.ComponentPath && strings.HasPrefix(tt.text, "/") && tt.text != "/a%zz" && !strings.HasPrefix(tt.text, "//") && n == 0 && errors.Is(err, ErrConflict) {
			t.Errorf("Set(%s, %q): %v: no suggestion", tt.c, tt.text, err)
		}
	}
}
