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
