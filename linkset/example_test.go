package linkset_test

import (
	"fmt"

	"github.com/urlkit/urlkit/linkset"
)

func ExampleClassify() {
	for _, line := range []string{
		"HTTP://Info.CERN.CH",
		"http://info.cern.ch/%7Ex",
		"http://info.cern.ch/a b",
	} {
		r := linkset.Classify(line, linkset.Options{})
		if r.Status == linkset.Rejected {
			fmt.Println(r.Status, r.Kind, r.Offset)
			continue
		}
		fmt.Println(r.Status, r.Canonical, r.Host)
	}
	// Output:
	// valid http://info.cern.ch/ info.cern.ch
	// valid http://info.cern.ch/%7Ex info.cern.ch
	// rejected unsafe-char 21
}

// Read takes what the generic syntax allows, and leaves the scheme's rules
// to the caller; a strict error's input may have a repair to suggest.
func ExampleRepair() {
	const in = "http://info.cern.ch/a b"
	if _, _, err := linkset.Read(in, linkset.Options{}); err != nil {
		fmt.Println(err)
		if u, warns, ok := linkset.Repair(in, false); ok {
			fmt.Println("--lenient reads", u, "with", len(warns), "repair:", warns[0])
		}
	}
	// Output:
	// offset 21 in path: space must be encoded as %20 (RFC 1738 2.2: unsafe)
	// --lenient reads http://info.cern.ch/a%20b with 1 repair: offset 21 in path: space 0x20 encoded as %20
}
