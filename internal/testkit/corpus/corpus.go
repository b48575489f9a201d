// Package corpus loads the shared test corpora that sit beside the
// repository (../shared/corpora), for tests and benchmarks.
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Dir returns the corpora folder: $URLKIT_CORPORA if set, else
// ../shared/corpora from the module root.
func Dir() string { return Shared("URLKIT_CORPORA", "corpora") }

// Shared returns the folder sub of ../shared beside the repository (the
// corpora, the real servers' sources and transcripts), or $env when set.
func Shared(env, sub string) string {
	if d := os.Getenv(env); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	return filepath.Join(root, "..", "shared", sub)
}

// Require returns the corpora folder. When it is absent the test is
// skipped with one line saying where the corpora are expected, or fails
// when URLKIT_REQUIRE_CORPORA=1 (as CI sets it).
func Require(tb testing.TB) string {
	tb.Helper()
	return Need(tb, Dir(), "corpora", "../shared/corpora beside the repository, or set URLKIT_CORPORA")
}

// Need returns path, a file or folder under ../shared that a test needs
// (what names it). When it is absent the test is skipped with one line
// saying where it is expected (hint), or fails when
// URLKIT_REQUIRE_CORPORA=1 (as CI sets it: ../shared is there).
func Need(tb testing.TB, path, what, hint string) string {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		msg := fmt.Sprintf("%s not found: expected in %s (%s)", what, path, hint)
		if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
			tb.Fatal(msg + "; URLKIT_REQUIRE_CORPORA=1 requires it")
		}
		tb.Skip(msg)
	}
	return path
}

// Path returns the path of a corpus file, skipping the test (see Require)
// when the corpora folder is absent.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	return filepath.Join(Require(tb), rel)
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

// ReadJSONL decodes the file at path as JSON Lines: one T per line. An
// error names the file and the line.
func ReadJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// A RelRow is one row of a resolution table in relative/: a base, a
// reference, the expected result and the table's fourth column (the
// section, a note or the test method it came from).
type RelRow struct {
	File            string // the table's file name
	Line            int    // the row's line number in the file
	Base, Ref, Want string
	Note            string
	// CurrentDocument marks RFC 2396's "(current document)" as the
	// expected result: the base without its fragment.
	CurrentDocument bool
}

// ReadRelative reads a resolution table: "#" comment lines naming the
// source, one header line, then base, reference, expected result and an
// optional note separated by tabs.
//
// In the RFC 2396 table the extractor cut expected values at ";" (RFC 2396
// C.1 prints ";x = <URL:http://a/b/c/;x>", which the table holds as
// "http://a/b/c/" with a note ending in ";x"); the last note word, when it
// starts with ";", is put back.
func ReadRelative(path string) ([]RelRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := filepath.Base(path)
	var rows []RelRow
	sc := bufio.NewScanner(f)
	header := false
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		if !header {
			header = true
			continue
		}
		col := strings.Split(text, "\t")
		if len(col) < 3 {
			return nil, fmt.Errorf("%s:%d: %d columns, want at least 3", path, n, len(col))
		}
		r := RelRow{File: name, Line: n, Base: col[0], Ref: col[1], Want: col[2]}
		if len(col) > 3 {
			r.Note = col[3]
		}
		if name == "rfc2396_appC_examples.tsv" {
			if w := strings.Fields(r.Note); len(w) > 0 {
				if last := w[len(w)-1]; len(last) > 1 && last[0] == ';' {
					r.Want += last
				}
			}
			r.CurrentDocument = strings.HasPrefix(r.Want, "(current document)")
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return rows, nil
}

// Mutate returns lines with n more appended: each a line of lines (the
// ones given, not the ones added) with one to four changes at random
// places, drawn from r: one of pieces put in, up to eight bytes cut out,
// or a run of up to sixteen "y" put in. Differential tests use it to
// reach the edges of a fast path (an offset of an eight-byte word, a
// field cut short) from a few lines written by hand.
func Mutate(r *rand.Rand, lines, pieces []string, n int) []string {
	base := len(lines)
	for i := 0; i < n && base > 0; i++ {
		s := lines[r.IntN(base)]
		for k := r.IntN(4); k >= 0; k-- {
			p := r.IntN(len(s) + 1)
			switch r.IntN(3) {
			case 0:
				s = s[:p] + pieces[r.IntN(len(pieces))] + s[p:]
			case 1:
				s = s[:p] + s[min(len(s), p+r.IntN(9)):]
			default:
				s = s[:p] + strings.Repeat("y", r.IntN(17)) + s[p:]
			}
		}
		lines = append(lines, s)
	}
	return lines
}
