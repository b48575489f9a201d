package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// corpora returns the shared corpora directory (../shared/corpora beside
// the repository), or skips the test with one line saying where it is
// expected; with URLKIT_REQUIRE_CORPORA=1 (as in CI) a missing corpus fails.
func corpora(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpora"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("URLKIT_REQUIRE_CORPORA") == "1" {
			t.Fatalf("corpora not found at %s (URLKIT_REQUIRE_CORPORA=1)", dir)
		}
		t.Skipf("corpora not found: expected at %s (../shared/corpora beside the repository)", dir)
	}
	return dir
}

// buildCLI returns the urlkit command: URLKIT_CLI when set (CI builds it
// once for the run), else built once per test process from the
// repository this module sits in.
func buildCLI(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("URLKIT_CLI"); bin != "" {
		return bin
	}
	cli.once.Do(func() {
		dir, err := os.MkdirTemp("", "urlkit-cli-")
		if err != nil {
			cli.err = err
			return
		}
		cli.bin = filepath.Join(dir, "urlkit")
		cmd := exec.Command("go", "build", "-o", cli.bin, "./cmd/urlkit")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			cli.err = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if cli.err != nil {
		t.Fatalf("building urlkit: %v", cli.err)
	}
	return cli.bin
}

// cli is the command buildCLI built, in a directory under TestMain's
// temporary directory (removed with it).
var cli struct {
	once sync.Once
	bin  string
	err  error
}

// cliCanon runs `urlkit canon --json` (with flags, such as --lenient)
// over in and returns the distinct
// canonical URLs, the rejected count per kind and the count per scheme,
// computed from the command line's own output.
func cliCanon(t *testing.T, bin string, in []byte, flags ...string) (distinct []string, kinds, schemes map[string]int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"canon", "--json"}, flags...)...)
	cmd.Stdin = bytes.NewReader(in)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("urlkit canon: %v", err)
		}
	}
	kinds, schemes = map[string]int{}, map[string]int{}
	set := map[string]bool{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var obj struct {
			Input     string `json:"input"`
			Valid     bool   `json:"valid"`
			Canonical string `json:"canonical"`
			Error     *struct {
				Kind string `json:"kind"`
			} `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &obj); err != nil {
			t.Fatalf("urlkit canon --json: %v: %s", err, sc.Bytes())
		}
		if !obj.Valid {
			if obj.Error == nil || obj.Error.Kind == "" {
				t.Fatalf("urlkit canon --json: an invalid line without error.kind: %s", sc.Bytes())
			}
			kinds[obj.Error.Kind]++
			continue
		}
		sch, _, ok := strings.Cut(obj.Canonical, ":")
		if !ok || strings.ContainsAny(sch, "/?#") {
			// canon refuses partial forms, as the link-set job does
			// (linkset.Parse): a valid one would be a disagreement.
			t.Fatalf("urlkit canon --json: a partial form taken as valid: %s", sc.Bytes())
		}
		schemes[strings.ToLower(sch)]++
		set[obj.Canonical] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for u := range set {
		distinct = append(distinct, u)
	}
	sort.Strings(distinct)
	return distinct, kinds, schemes
}

// section returns one section of the pipeline's counts as a map.
func section(counts []string, name string) map[string]int {
	m := map[string]int{}
	for _, l := range counts {
		f := strings.Split(l, "\t")
		if len(f) == 3 && f[0] == name {
			n, err := strconv.Atoi(f[2])
			if err != nil {
				n = -1 // a malformed count then differs from any expected one
			}
			m[f[1]] = n
		}
	}
	return m
}

func diffMaps(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s %q: pipeline %d, command line %d", what, k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s %q: pipeline %d, command line none", what, k, v)
		}
	}
}

func diffLists(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") == strings.Join(want, "\n") {
		return
	}
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
	}
	g := map[string]bool{}
	n := 0
	for _, s := range got {
		g[s] = true
		if !w[s] && n < 10 {
			t.Errorf("%s: only the pipeline has %q", what, s)
			n++
		}
	}
	for _, s := range want {
		if !g[s] && n < 20 {
			t.Errorf("%s: only the command line has %q", what, s)
			n++
		}
	}
	t.Errorf("%s: pipeline %d, command line %d", what, len(got), len(want))
}

// TestAgreesWithCLI runs the pipeline on Prism over the ada-url datasets
// (one URL per line) and compares its distinct canonical URLs, rejections
// per kind and URLs per scheme with what `urlkit canon --json` gives on
// the same lines.
func TestAgreesWithCLI(t *testing.T) {
	dir := corpora(t)
	bin := buildCLI(t)
	files, _ := filepath.Glob(filepath.Join(dir, "ada-url-datasets", "*.txt"))
	if len(files) == 0 {
		t.Fatalf("no ada-url datasets in %s", dir)
	}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
		if len(b) > 0 && b[len(b)-1] != '\n' {
			all = append(all, '\n')
		}
	}
	distinct, kinds, schemes := cliCanon(t, bin, all)

	out := run(t, Config{Input: filepath.Join(dir, "ada-url-datasets", "*.txt")}, nil)
	diffLists(t, "distinct canonical URLs", out["canonical.txt"], distinct)
	diffMaps(t, "rejected, kind", section(out["counts.tsv"], SectionKind), kinds)
	diffMaps(t, "valid, scheme", section(out["counts.tsv"], SectionScheme), schemes)
	t.Logf("%d lines, %d distinct canonical URLs, %d schemes, rejections %v", bytes.Count(all, []byte("\n")), len(distinct), len(schemes), kinds)
}

// TestExtractAgreesWithCLI runs the pipeline with --extract over the text
// corpus (RFCs, drafts and minutes of the period) and compares with
// `urlkit extract --verbose FILES | urlkit canon`.
func TestExtractAgreesWithCLI(t *testing.T) {
	dir := corpora(t)
	out := run(t, Config{Input: filepath.Join(dir, "text-with-urls", "*.txt"), Extract: true}, nil)
	agreesWithExtract(t, out, textCorpus(t, dir))
}

// textCorpus lists the files of the text corpus.
func textCorpus(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "text-with-urls", "*.txt"))
	if len(files) == 0 {
		t.Fatalf("no text corpus in %s", dir)
	}
	return files
}

// agreesWithExtract compares the pipeline's outputs out with
// `urlkit extract --verbose FILES | urlkit canon` over files: the distinct
// canonical URLs, the counts per scheme, and the rejections (what extract
// skipped and canon rejected).
func agreesWithExtract(t *testing.T, out map[string][]string, files []string) {
	t.Helper()
	bin := buildCLI(t)
	var urls, skipped bytes.Buffer
	cmd := exec.Command(bin, append([]string{"extract", "--verbose"}, files...)...)
	cmd.Stdout, cmd.Stderr = &urls, &skipped
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("urlkit extract: %v", err)
		}
	}
	// urlkit extract prints what parses by the generic syntax; canon also
	// applies each scheme's rules, as the pipeline does.
	distinct, kinds, schemes := cliCanon(t, bin, urls.Bytes())
	nSkipped := strings.Count(skipped.String(), ": skipped ")
	for _, n := range kinds {
		nSkipped += n
	}
	diffLists(t, "distinct canonical URLs", out["canonical.txt"], distinct)
	diffMaps(t, "valid, scheme", section(out["counts.tsv"], SectionScheme), schemes)
	if got := section(out["counts.tsv"], SectionStatus)["rejected"]; got != nSkipped {
		t.Errorf("rejected: pipeline %d, urlkit extract --verbose skipped or canon rejected %d", got, nSkipped)
	}
	if got := len(out["rejected.tsv"]); got != nSkipped {
		t.Errorf("rejected lines: pipeline %d, urlkit extract --verbose skipped or canon rejected %d", got, nSkipped)
	}
	t.Logf("%d URLs found, %d distinct canonical, %d rejected (%v by canon)", strings.Count(urls.String(), "\n"), len(distinct), nSkipped, kinds)
}
