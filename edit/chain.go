package edit

import (
	"fmt"

	"github.com/urlkit/urlkit"
)

// An Editor chains edits on a URL: each method applies one edit and
// returns the Editor for the next, and the first edit that fails stops the
// chain, its error kept (naming the step) and returned by [Editor.URL].
// An Editor is a value: keeping one and editing it twice gives two
// independent results.
//
//	u, err := edit.From(base).SetHost("example.org").JoinPath("a b").SetSearchValue("q", "x").URL()
type Editor struct {
	u    urlkit.URL
	err  error
	step int
}

// From starts a chain of edits on u.
func From(u urlkit.URL) Editor { return Editor{u: u} }

// URL returns the URL after the edits, or the error of the first one that
// failed: "edit 2 (SetHost): ..." wrapping the edit's own error.
func (e Editor) URL() (urlkit.URL, error) {
	if e.err != nil {
		return urlkit.URL{}, e.err
	}
	return e.u, nil
}

// Must returns the URL after the edits, and panics if one failed: for
// URLs written into a program, as urlkit.MustParse is.
func (e Editor) Must() urlkit.URL { return Must(e.URL()) }

// apply runs one edit unless an earlier one failed.
func (e Editor) apply(name string, f func(urlkit.URL) (urlkit.URL, error)) Editor {
	if e.err != nil {
		return e
	}
	e.step++
	v, err := f(e.u)
	if err != nil {
		e.err = fmt.Errorf("edit %d (%s): %w", e.step, name, err)
		return e
	}
	e.u = v
	return e
}

// Set applies [Set].
func (e Editor) Set(c urlkit.Component, text string) Editor {
	return e.apply("Set "+c.String(), func(u urlkit.URL) (urlkit.URL, error) { return Set(u, c, text) })
}

// SetUnescaped applies [SetUnescaped].
func (e Editor) SetUnescaped(c urlkit.Component, text string) Editor {
	return e.apply("SetUnescaped "+c.String(), func(u urlkit.URL) (urlkit.URL, error) { return SetUnescaped(u, c, text) })
}

// Clear applies [Clear].
func (e Editor) Clear(c urlkit.Component) Editor {
	return e.apply("Clear "+c.String(), func(u urlkit.URL) (urlkit.URL, error) { return Clear(u, c) })
}

// SetScheme is Set(urlkit.ComponentScheme, name).
func (e Editor) SetScheme(name string) Editor { return e.Set(urlkit.ComponentScheme, name) }

// SetHost is Set(urlkit.ComponentHost, host).
func (e Editor) SetHost(host string) Editor { return e.Set(urlkit.ComponentHost, host) }

// SetPort is Set(urlkit.ComponentPort, port).
func (e Editor) SetPort(port string) Editor { return e.Set(urlkit.ComponentPort, port) }

// SetPath is Set(urlkit.ComponentPath, path): encoded text, without the
// "/" that follows the host.
func (e Editor) SetPath(path string) Editor { return e.Set(urlkit.ComponentPath, path) }

// SetFragment is Set(urlkit.ComponentFragment, fragment).
func (e Editor) SetFragment(fragment string) Editor { return e.Set(urlkit.ComponentFragment, fragment) }

// JoinPath applies [JoinPath].
func (e Editor) JoinPath(segments ...string) Editor {
	return e.apply("JoinPath", func(u urlkit.URL) (urlkit.URL, error) { return JoinPath(u, segments...) })
}

// AddSearch applies [AddSearch].
func (e Editor) AddSearch(key, value string) Editor {
	return e.apply("AddSearch", func(u urlkit.URL) (urlkit.URL, error) { return AddSearch(u, key, value) })
}

// SetSearchValue applies [SetSearchValue].
func (e Editor) SetSearchValue(key, value string) Editor {
	return e.apply("SetSearchValue", func(u urlkit.URL) (urlkit.URL, error) { return SetSearchValue(u, key, value) })
}

// DeleteSearch applies [DeleteSearch].
func (e Editor) DeleteSearch(key string) Editor {
	return e.apply("DeleteSearch", func(u urlkit.URL) (urlkit.URL, error) { return DeleteSearch(u, key) })
}

// FilterSearch applies [FilterSearch].
func (e Editor) FilterSearch(keep func(SearchPair) bool) Editor {
	return e.apply("FilterSearch", func(u urlkit.URL) (urlkit.URL, error) { return FilterSearch(u, keep) })
}

// Must returns u, and panics when err is not nil: it wraps any edit for
// URLs written into a program, edit.Must(edit.JoinPath(u, "a")).
func Must(u urlkit.URL, err error) urlkit.URL {
	if err != nil {
		panic("edit: " + err.Error())
	}
	return u
}
