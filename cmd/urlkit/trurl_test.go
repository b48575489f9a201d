package main

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// trurlCase is one case of testdata/trurl.json: a case of trurl's own test
// suite (curl/trurl tests.json), translated to urlkit edit, and what urlkit
// does with it.
type trurlCase struct {
	TrurlIndex   int      `json:"trurl_index"`
	TrurlArgs    []string `json:"trurl_args"`
	Args         []string `json:"args"`
	TrurlStdout  string   `json:"trurl_stdout"`
	TrurlStatus  int      `json:"trurl_status"`
	Verdict      string   `json:"verdict"`
	URLkitStdout string   `json:"urlkit_stdout"`
	URLkitStatus int      `json:"urlkit_status"`
	Note         string   `json:"note"`
}

// TestTrurlCorpus runs the trurl cases that fit RFC 1738. A case marked
// "same" must give trurl's output and success; a case marked "differs"
// must give the output urlkit documents and still differ from trurl's, so
// that a stale verdict fails in either direction.
func TestTrurlCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/trurl.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Source string      `json:"source"`
		Cases  []trurlCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) < 60 || doc.Source == "" {
		t.Fatalf("corpus has %d cases, source %q", len(doc.Cases), doc.Source)
	}
	same := 0
	for _, c := range doc.Cases {
		t.Run(fmt.Sprint("trurl-", c.TrurlIndex), func(t *testing.T) {
			out, errOut, code := runCLI(t, "", append([]string{"edit"}, c.Args...)...)
			matches := out == c.TrurlStdout && (code == 0) == (c.TrurlStatus == 0)
			switch c.Verdict {
			case "same":
				same++
				if !matches {
					t.Errorf("trurl %q: urlkit edit %q = %q (status %d, %s); trurl gives %q (status %d)", c.TrurlArgs, c.Args, out, code, errOut, c.TrurlStdout, c.TrurlStatus)
				}
			case "differs":
				if c.Note == "" {
					t.Errorf("a case that differs needs a note")
				}
				if matches {
					t.Errorf("trurl %q: urlkit now agrees with trurl (%q): mark the case same", c.TrurlArgs, out)
				}
				if out != c.URLkitStdout || code != c.URLkitStatus {
					t.Errorf("urlkit edit %q = %q (status %d, %s); the corpus records %q (status %d)", c.Args, out, code, errOut, c.URLkitStdout, c.URLkitStatus)
				}
			default:
				t.Errorf("unknown verdict %q", c.Verdict)
			}
		})
	}
	t.Logf("%d of %d trurl cases give trurl's result", same, len(doc.Cases))
}
