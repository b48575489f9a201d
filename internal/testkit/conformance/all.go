package conformance

import "github.com/urlkit/urlkit/internal/testkit/corpus"

// DefaultDir returns the corpora folder: $URLKIT_CORPORA, else
// ../shared/corpora beside the module.
func DefaultDir() string { return corpus.Dir() }

// All runs every suite over the corpora in dir, in report order.
func All(dir string) ([]*Suite, error) {
	var suites []*Suite
	for _, rel := range []string{"wpt-url/urltestdata.json", "wpt-url/ada_extra_urltestdata.json"} {
		s, err := WPT(dir, rel)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	for _, run := range extraSuites {
		s, err := run(dir)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	res, err := Resolution(dir)
	if err != nil {
		return nil, err
	}
	suites = append(suites, res...)
	join, err := PythonJoin(dir)
	if err != nil {
		return nil, err
	}
	suites = append(suites, join)
	return suites, nil
}

// extraSuites run after the WPT suites, in order.
var extraSuites []func(dir string) (*Suite, error)

func init() {
	extraSuites = append(extraSuites, WPTPercent, PerlEscape, Lib1560, CurlFTPGopher, NetURL, PythonSplit, UTS46)
}
