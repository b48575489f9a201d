// Package corpus loads the shared test corpora that sit beside the
// repository (../shared/corpora), for tests and benchmarks.
package corpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir returns the corpora folder: $URLKIT_CORPORA if set, else
// ../shared/corpora from the module root.
func Dir() string {
	if d := os.Getenv("URLKIT_CORPORA"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(root, "..", "shared", "corpora")
}

// Path returns the path of a corpus file, skipping the test with a clear
// message when the corpora folder is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	p := filepath.Join(Dir(), rel)
	if _, err := os.Stat(Dir()); err != nil {
		tb.Skipf("corpora folder %s is absent (it sits beside the repository as ../shared/corpora): %v", Dir(), err)
	}
	return p
}

// Lines returns the non-empty lines of a corpus file, without line endings
// or a UTF-8 byte-order mark.
func Lines(tb testing.TB, rel string) []string {
	tb.Helper()
	out, err := ReadLines(Path(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// ReadLines returns the non-empty lines of the file at path, without line
// endings or a UTF-8 byte-order mark.
func ReadLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		line = strings.TrimPrefix(line, "\ufeff")
		if line != "" {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
