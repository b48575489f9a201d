// Package pipeline is urlkit's link-set job as an Apache Beam pipeline:
// the per-line steps of package linkset (parse, repair, scheme view,
// canonical form, rejection kind) applied to text files matched by a glob,
// then the aggregations a crawl-size link set needs: the distinct
// canonical URLs (RFC 1630 equivalence), the rejected lines with offset
// and reason, counts per status, scheme, host and rejection kind, and a
// summary table.
//
// Every aggregation is a combiner (Beam lifts it before the shuffle), so
// a popular host or scheme costs one partial count per bundle, not one
// element per line; the dedup shuffles a 16-byte hash of each canonical
// URL as its key (linkset.DedupKey) with one URL kept per key.
package pipeline

import (
	"context"
	"fmt"

	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"

	"github.com/urlkit/urlkit/linkset"
)

// Config says what the pipeline reads and writes.
type Config struct {
	// Input is a file glob (local, or any file system Beam knows, such as
	// gs://bucket/path/*.txt on Dataflow).
	Input string
	// Output is the prefix of the output files: PREFIX-canonical.txt,
	// PREFIX-rejected.tsv, PREFIX-counts.tsv, PREFIX-summary.txt.
	Output string
	// Extract reads the input as free text and takes the URLs in it (RFC
	// 1738 appendix: <URL:...> wrappers, white space in them ignored)
	// instead of one URL per line.
	Extract bool
	// Lenient repairs what urlkit.ParseLenient can repair.
	Lenient bool
	// TopHosts is how many hosts the summary lists (all of them are in
	// PREFIX-counts.tsv). Zero means 20.
	TopHosts int
}

// Outputs are the PCollections Build makes, for tests and for callers that
// add their own sinks.
type Outputs struct {
	Canonical beam.PCollection // string: each distinct canonical URL once
	Rejected  beam.PCollection // string: linkset.RejectedLine of each rejected line
	Counts    beam.PCollection // string: "section<TAB>key<TAB>count"
	Summary   beam.PCollection // string: one element, the summary table
}

func init() {
	register.DoFn4x0[string, func(string, string), func(string), func(string, int)](&classifyFn{})
	register.Emitter2[string, string]()
	register.Emitter2[string, int]()
	register.Emitter1[string]()
	register.DoFn5x1[context.Context, fileio.ReadableFile, func(string), func(string), func(string, int), error](&extractFn{})
	register.Function2x1(pickFirst)
	register.Function2x1(dropKey)
	register.Function2x1(formatCount)
	register.Function2x1(hostLess)
	register.Function3x0(hostOnly)
	register.Function3x0(notHost)
	register.Function5x1(formatSummary)
}

// Build adds the pipeline to s and returns its outputs; when cfg.Output is
// not empty it also writes them.
func Build(s beam.Scope, cfg Config) Outputs {
	s = s.Scope("urlkit")
	cf := &classifyFn{Lenient: cfg.Lenient}
	var canon, rejected, keys beam.PCollection
	if cfg.Extract {
		files := fileio.ReadMatches(s, fileio.MatchFiles(s, cfg.Input), fileio.ReadDirectorySkip())
		// A candidate the extractor gives up is written and counted like
		// a rejected line.
		cands, rej, rejKeys := beam.ParDo3(s, &extractFn{Lenient: cfg.Lenient}, files)
		canon, rejected, keys = beam.ParDo3(s, cf, cands)
		rejected = beam.Flatten(s, rejected, rej)
		keys = beam.Flatten(s, keys, rejKeys)
	} else {
		lines := textio.Read(s, cfg.Input)
		canon, rejected, keys = beam.ParDo3(s, cf, lines)
	}
	distinct := beam.ParDo(s, dropKey, beam.CombinePerKey(s, pickFirst, canon))
	counts := stats.SumPerKey(s, keys)
	nDistinct := stats.CountElms(s, distinct)

	hosts := beam.ParDo(s, hostOnly, counts)
	topHosts := top.Largest(s, hosts, cfg.topHosts(), hostLess)
	small := beam.ParDo(s, notHost, counts)
	summary := beam.ParDo(s, formatSummary, beam.Impulse(s),
		beam.SideInput{Input: small}, beam.SideInput{Input: topHosts}, beam.SideInput{Input: nDistinct})

	out := Outputs{
		Canonical: distinct,
		Rejected:  rejected,
		Counts:    beam.ParDo(s, formatCount, counts),
		Summary:   summary,
	}
	if cfg.Output != "" {
		write(s, cfg.Output+"-canonical.txt", "", out.Canonical)
		write(s, cfg.Output+"-rejected.tsv", RejectedHeader, out.Rejected)
		write(s, cfg.Output+"-counts.tsv", CountsHeader, out.Counts)
		write(s, cfg.Output+"-summary.txt", "", out.Summary)
	}
	return out
}

// The header lines of the tab-separated outputs.
const (
	RejectedHeader = "input\tkind\toffset\treason"
	CountsHeader   = "section\tkey\tcount"
)

func (c Config) topHosts() int {
	if c.TopHosts > 0 {
		return c.TopHosts
	}
	return 20
}

// The count sections. A count key is "section\tkey".
const (
	SectionStatus = "status" // valid, repaired, rejected
	SectionScheme = "scheme" // valid and repaired URLs per scheme
	SectionHost   = "host"   // valid and repaired URLs per host
	SectionKind   = "kind"   // rejected lines per linkset.Kind
)

// classifyFn reads one line: it emits the URL's dedup key and canonical
// form, the rejected line, and the keys to count with their counts.
//
// It combines within a bundle itself before anything is shuffled: each
// count key once per bundle with its sum, each canonical URL once per
// bundle. (Beam's own combiner lifting keeps only 2,000 keys per bundle
// and evicts at random, so with the many hosts and URLs of a link set it
// would pass on nearly one element per line.) Each map is flushed when it
// holds maxBundleKeys keys, so memory stays bounded whatever the bundle.
type classifyFn struct {
	Lenient bool

	counts map[string]int
	seen   map[string]string // dedup key -> canonical URL
}

// maxBundleKeys bounds each of classifyFn's maps.
const maxBundleKeys = 1 << 17

func (f *classifyFn) StartBundle(canon func(string, string), rejected func(string), count func(string, int)) {
	f.counts = make(map[string]int)
	f.seen = make(map[string]string)
}

func (f *classifyFn) ProcessElement(line string, canon func(string, string), rejected func(string), count func(string, int)) {
	line, ok := linkset.Line(line)
	if !ok {
		return
	}
	r := linkset.Classify(line, linkset.Options{Lenient: f.Lenient})
	if f.counts == nil {
		f.StartBundle(canon, rejected, count)
	}
	add := func(k string) { f.counts[k]++ }
	if r.Status == linkset.Rejected {
		rejected(linkset.RejectedLine(r))
	} else {
		f.seen[linkset.DedupKey(r.Canonical)] = r.Canonical
	}
	recordKeys(r, add)
	if len(f.counts) >= maxBundleKeys || len(f.seen) >= maxBundleKeys {
		f.flush(canon, count)
	}
}

func (f *classifyFn) FinishBundle(canon func(string, string), rejected func(string), count func(string, int)) {
	f.flush(canon, count)
}

func (f *classifyFn) flush(canon func(string, string), count func(string, int)) {
	for k, n := range f.counts {
		count(k, n)
	}
	for k, u := range f.seen {
		canon(k, u)
	}
	clear(f.counts)
	clear(f.seen)
}

// recordKeys calls add with each count key of a record: its status, and
// its scheme, host and scheme finding or its rejection kind.
func recordKeys(r linkset.Record, add func(string)) {
	add(SectionStatus + "\t" + r.Status.String())
	if r.Status == linkset.Rejected {
		add(SectionKind + "\t" + r.Kind)
		return
	}
	add(SectionScheme + "\t" + r.Scheme)
	if r.Host != "" {
		add(SectionHost + "\t" + r.Host)
	}
}

// extractFn reads one file as free text and emits each URL found, as
// written, to be classified like a line; a candidate the extractor gives
// up is emitted as a rejected line at once, with its count keys.
type extractFn struct {
	Lenient bool
}

func (f *extractFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, cand func(string), rejected func(string), count func(string, int)) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return fmt.Errorf("urlkit-beam: opening %s: %w", file.Metadata.Path, err)
	}
	defer rc.Close()
	return linkset.ExtractLines(rc, linkset.Options{Lenient: f.Lenient},
		func(url string) { cand(url) },
		func(r linkset.Record) {
			rejected(linkset.RejectedLine(r))
			recordKeys(r, func(k string) { count(k, 1) })
		})
}

// pickFirst keeps one canonical URL per dedup key. Two different URLs
// with one key (a SHA-256 prefix collision) would keep the smaller, so the
// output does not depend on the order of the shuffle.
func pickFirst(a, b string) string {
	if b < a {
		return b
	}
	return a
}

func dropKey(_ string, v string) string { return v }

func formatCount(k string, n int) string { return k + "\t" + strconv.Itoa(n) }

// HostCount is one host's count, for the top-hosts list.
type HostCount struct {
	Host  string
	Count int
}

func hostLess(a, b HostCount) bool {
	if a.Count != b.Count {
		return a.Count < b.Count
	}
	return a.Host > b.Host
}

func hostOnly(k string, n int, emit func(HostCount)) {
	if h, ok := strings.CutPrefix(k, SectionHost+"\t"); ok {
		emit(HostCount{h, n})
	}
}

func notHost(k string, n int, emit func(string, int)) {
	if !strings.HasPrefix(k, SectionHost+"\t") {
		emit(k, n)
	}
}

func init() {
	register.Emitter1[HostCount]()
	beam.RegisterType(reflect.TypeOf((*HostCount)(nil)).Elem())
}

// formatSummary writes the summary table from the small count sections,
// the top hosts and the number of distinct canonical URLs.
func formatSummary(_ []byte, small func(*string, *int) bool, tops func(*[]HostCount) bool, distinct func(*int) bool, emit func(string)) error {
	counts := map[string]map[string]int{}
	var k string
	var n int
	for small(&k, &n) {
		sec, key, ok := strings.Cut(k, "\t")
		if !ok {
			return fmt.Errorf("urlkit-beam: count key %q has no section", k)
		}
		if counts[sec] == nil {
			counts[sec] = map[string]int{}
		}
		counts[sec][key] = n
	}
	var hosts []HostCount
	tops(&hosts)
	nd := 0
	distinct(&nd)
	emit(Summary(counts, hosts, nd))
	return nil
}

// Summary renders the summary table: totals, then one section per count
// kind, largest first.
func Summary(counts map[string]map[string]int, hosts []HostCount, distinct int) string {
	var b strings.Builder
	st := counts[SectionStatus]
	total := st["valid"] + st["repaired"] + st["rejected"]
	fmt.Fprintf(&b, "lines\t%d\nvalid\t%d\nrepaired\t%d\nrejected\t%d\ndistinct canonical\t%d\n",
		total, st["valid"], st["repaired"], st["rejected"], distinct)
	for _, sec := range []string{SectionScheme, SectionKind} {
		m := counts[sec]
		if len(m) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s\tcount\n", sec)
		for _, k := range sortedKeys(m) {
			fmt.Fprintf(&b, "%s\t%d\n", k, m[k])
		}
	}
	if len(hosts) > 0 {
		fmt.Fprintf(&b, "\ntop hosts\tcount\n")
		for _, h := range hosts {
			fmt.Fprintf(&b, "%s\t%d\n", linkset.Field(h.Host), h.Count)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}
