package conformance

import "testing"

// TestLynxOracle runs the lynx suite alone (TestNoWrong runs it with the
// others): every pair compared, nothing unexplained.
func TestLynxOracle(t *testing.T) {
	s, err := Lynx(corporaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if s.Unavailable != "" {
		t.Skip(s.Unavailable)
	}
	checkSuite(t, s)
}

// checkSuite fails on a suite with wrong cases, or whose figures do not
// add up.
func checkSuite(t *testing.T, s *Suite) {
	t.Helper()
	if s.Considered == 0 {
		t.Fatalf("%s: no case considered out of %d", s.Name, s.Total)
	}
	skipped := 0
	for _, c := range s.Skipped {
		skipped += c.Count
	}
	if s.Considered+skipped != s.Total || s.Agreed+s.DifferentCount()+len(s.Wrong) != s.Considered {
		t.Errorf("%s: figures do not add up: total %d, skipped %d, considered %d, agreed %d, different %d, wrong %d",
			s.Name, s.Total, skipped, s.Considered, s.Agreed, s.DifferentCount(), len(s.Wrong))
	}
	for _, w := range s.Wrong {
		t.Errorf("wrong: %q: %s", w.Input, w.Detail)
	}
	for _, c := range s.Different {
		t.Logf("different %-40s %4d  e.g. %q", c.Name, c.Count, c.Examples)
	}
	for _, c := range s.Translations {
		t.Logf("translated %-40s %4d  e.g. %q", c.Name, c.Count, c.Examples)
	}
	t.Logf("%s: cases %d, considered %d, agreed %d (%d exactly), different %d, wrong %d",
		s.Name, s.Total, s.Considered, s.Agreed, s.AgreedExact, s.DifferentCount(), len(s.Wrong))
}

// TestPerlURI runs the Perl URI suites alone.
func TestPerlURI(t *testing.T) {
	for _, run := range []func(string) (*Suite, error){PerlAbs, PerlRel} {
		s, err := run(corporaDir(t))
		if err != nil {
			t.Fatal(err)
		}
		checkSuite(t, s)
	}
}

// TestLib1560Resolve runs curl's lib1560 resolution rows alone.
func TestLib1560Resolve(t *testing.T) {
	s, err := Lib1560Resolve(corporaDir(t))
	if err != nil {
		t.Fatal(err)
	}
	checkSuite(t, s)
}
