package mutate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMutantsLocate checks that every planted bug of mutants.txt still
// finds its code exactly once: when the code moves or changes, the mutant
// must be brought along (CI's mutation check would fail anyway, later).
func TestMutantsLocate(t *testing.T) {
	data, err := os.ReadFile("mutants.txt")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 6 {
		t.Fatalf("%d mutants parsed, want every one of mutants.txt", len(ms))
	}
	root := filepath.Join("..", "..", "..")
	for _, m := range ms {
		sites, err := Locate(root, m)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, s := range sites {
			if !strings.HasSuffix(s.File, ".go") || strings.HasSuffix(s.File, "_test.go") {
				t.Errorf("%s: found in %s, want a production Go file", m.Name, s.File)
			}
		}
	}
}

// TestPlant checks the edit on a copy: a one-line pattern replaces a
// substring, a longer one whole lines whatever their indentation, and a
// pattern found twice is refused.
func TestPlant(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nfunc f(x int) bool {\n\tif x > 0 {\n\t\treturn true\n\t}\n\treturn false\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "p_test.go"), []byte("package p // x > 0"), 0o644)
	ms, err := Parse([]byte("== a\nwhy: w\npackage: ./\nfail: TestX\nfind:\n\tx > 0\nreplace:\n\tx >= 0\n\n== b\npackage: ./\nfail: TestX\nfind:\n\t  if x > 0 {\n\treturn true\nreplace:\n\tif x < 0 {\n\t\treturn true\n\n== c\npackage: ./\nfail: TestX\nfind:\n\treturn\nreplace:\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := LocateEdit(dir, ms[0], 0)
	if err != nil || s.File != "p.go" {
		t.Fatalf("one-line pattern: %+v %v", s, err)
	}
	if err := Apply(dir, s); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "p.go"))
	if !strings.Contains(string(got), "if x >= 0 {") {
		t.Errorf("after a: %s", got)
	}
	os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644)
	s, err = LocateEdit(dir, ms[1], 0)
	if err != nil {
		t.Fatal(err)
	}
	Apply(dir, s)
	got, _ = os.ReadFile(filepath.Join(dir, "p.go"))
	if !strings.Contains(string(got), "if x < 0 {\n\treturn true\n\t}") {
		t.Errorf("after b: %q", got)
	}
	if _, err := Locate(dir, ms[2]); err == nil || !strings.Contains(err.Error(), "found 2 times") {
		t.Errorf("a pattern found twice: %v", err)
	}
}
