// Package pipeline is urlkit's link-set job as an Apache Beam pipeline:
// the per-line steps of package linkset (parse, repair, scheme view,
// canonical form, rejection kind) applied to text files matched by a glob,
// then the aggregations a crawl-size link set needs: the distinct
// canonical URLs (RFC 1630 equivalence), the rejected lines with offset
// and reason, counts per status, scheme, host and rejection kind, and a
// summary table.
//
// The pipeline is shaped so that few elements cross from one stage to the
// next. One step reads the files and classifies every line, and within a
// bundle keeps each canonical URL once and adds up the counts (see
// bundle); it emits its results as a few large batches, one per output
// shard, rather than an element per line. A canonical URL's shard is a
// hash of the URL, so every copy of a URL reaches the one worker that
// writes its shard, which keeps it once. Only the counts and the summary
// are gathered on one worker, after the host counts were added up per
// shard.
package pipeline

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners"
)

// Config says what the pipeline reads and writes.
type Config struct {
	// Input is a file glob (local, or any file system Beam knows, such as
	// gs://bucket/path/*.txt on Dataflow). A file whose name ends in .gz
	// is read through gzip.
	Input string
	// InputWARC is a glob of WARC files (compressed record by record or
	// not), read instead of Input or as well: the links of the archived
	// listings and the URLs in the archived text documents are the lines
	// (see ReadWARC); a record that cannot be read is a rejected line of
	// kind KindBadRecord naming the file and the record's offset.
	InputWARC string
	// Output is the prefix of the output files: the distinct canonical
	// URLs in PREFIX-canonical-SSSSS-of-NNNNN.txt and the rejected lines
	// in PREFIX-rejected-SSSSS-of-NNNNN.tsv (NNNNN shards of each, see
	// Shards), the counts in PREFIX-counts.tsv and the summary in
	// PREFIX-summary.txt.
	Output string
	// Shards is the number of files the canonical URLs and the rejected
	// lines are each written to, from 1 to MaxShards; zero means
	// DefaultShards. The shards are written in parallel (a worker writes as
	// many at once as it has processors), and the worker writing one
	// shard keeps a 16-byte fingerprint of each of its URLs, at most
	// 6,291,456 at a time (a 128 MiB table); a shard with more lines is
	// written in several passes over its batch files, so a link set of D
	// lines wants about D/(6·10^6) shards or more.
	Shards int
	// Extract reads the input as free text and takes the URLs in it (RFC
	// 1738 appendix: <URL:...> wrappers, white space in them ignored)
	// instead of one URL per line.
	Extract bool
	// Lenient repairs what urlkit.ParseLenient can repair.
	Lenient bool
	// InProcess says that every worker of the run is this process (Prism
	// in-process, or LOOPBACK workers: see WorkersInProcess), so that the
	// batches may pass from the reading step to the shard writers in
	// memory rather than through files (see memBatches). The parts of a
	// read split by Parts always pass theirs through files.
	InProcess bool
	// KeepInputCache leaves the pages of the input files (--input, local
	// and not compressed) in the page cache. By default the readers drop
	// them as they go (see dropBehind): the job reads its input once, and
	// its batch files then reuse that memory. A job whose input is read
	// again soon after (a benchmark, another job) may keep them.
	KeepInputCache bool
	// TopHosts is how many hosts the summary lists (all of them are in
	// PREFIX-counts.tsv). Zero means 20.
	TopHosts int
	// Parts splits the reading of Input's lines (not Extract's text nor
	// the WARC files) into this many steps, each in a scope of its own
	// (PartScope) and reading the lines that start in its own share of
	// every file's bytes, so that every line is read by exactly one of
	// them. A launcher can put each step in an environment of its own
	// (package multienv): a runner that starts one worker per
	// environment, as Prism does, then reads the lines in Parts workers.
	// Zero or one: one step.
	Parts int
}

// PartScope is the name of the scope of part i (from 0) of n of the
// reading when Config.Parts is n.
func PartScope(i, n int) string {
	return fmt.Sprintf("read part %d of %d", i+1, n)
}

// PartOf is the part (from 0) of n of the reading that the step of the
// given unique name (a Beam step's, "SCOPE/.../NAME") belongs to, by its
// scope; the steps outside the parts are part 0 with the first part.
func PartOf(uniqueName string, n int) int {
	for i := 1; i < n; i++ {
		if strings.Contains("/"+uniqueName+"/", "/"+PartScope(i, n)+"/") {
			return i
		}
	}
	return 0
}

// DefaultShards is the number of shards when Config.Shards is zero;
// MaxShards is the most (the shard numbers have five digits).
const (
	DefaultShards = 16
	MaxShards     = 99999
)

// MaxParts is the most parts Config.Parts splits the reading into.
const MaxParts = 64

// Build adds the pipeline to s: it reads cfg.Input and writes the outputs
// named by cfg.Output.
func Build(s beam.Scope, cfg Config) error {
	if cfg.Input == "" && cfg.InputWARC == "" || cfg.Output == "" {
		return errors.New("urlkit-beam: an input glob (of lines, or of WARC files) and the output prefix are both required")
	}
	shards := cfg.shards()
	if shards < 1 || shards > MaxShards {
		return fmt.Errorf("urlkit-beam: %d shards: the number of shards is from 1 to %d", cfg.Shards, MaxShards)
	}
	if cfg.Parts < 0 || cfg.Parts > MaxParts {
		return fmt.Errorf("urlkit-beam: %d parts: the reading is split in 1 to %d parts", cfg.Parts, MaxParts)
	}
	if cfg.Parts > 1 && (cfg.Input == "" || cfg.Extract) {
		return errors.New("urlkit-beam: the reading is split in parts only for an input of lines (--input without --extract)")
	}
	s = s.Scope("urlkit")
	// The batches go from the reading step to the shard writers through
	// files in a directory beside the outputs, removed at the end.
	tmp := cfg.Output + "-tmp-" + strconv.FormatUint(rand.Uint64(), 36)
	var canon, rejected, counts beam.PCollection
	if cfg.Input != "" {
		files := fileio.ReadMatches(s, fileio.MatchFiles(s, cfg.Input), fileio.ReadDirectorySkip())
		if cfg.Extract {
			canon, rejected, counts = beam.ParDo3(s, &extractFn{Lenient: cfg.Lenient, Shards: shards, Tmp: tmp, InMemory: cfg.InProcess, KeepCache: cfg.KeepInputCache}, files)
		} else if cfg.Parts > 1 {
			canon, rejected, counts = readParts(s, cfg, shards, tmp, files)
		} else {
			canon, rejected, counts = beam.ParDo3(s, &readLinesFn{Lenient: cfg.Lenient, Shards: shards, Tmp: tmp, InMemory: cfg.InProcess, KeepCache: cfg.KeepInputCache}, files)
		}
	}
	if cfg.InputWARC != "" {
		canon, rejected, counts = readWARCs(s, cfg, shards, tmp, canon, rejected, counts)
	}
	// One impulse starts the empty batches that make every output
	// written (each impulse is a stage of its own for the runner, and
	// Prism's loops cost time per stage).
	impulse := beam.Impulse(s)
	distinct := writeShards(s, impulse, canon, &writeShardFn{Prefix: cfg.Output, Kind: "canonical", Ext: "txt", Shards: shards, Dedup: true, InProcess: cfg.InProcess})
	nRejected := writeShards(s, impulse, rejected, &writeShardFn{Prefix: cfg.Output, Kind: "rejected", Ext: "tsv", Header: RejectedHeader, Shards: shards, InProcess: cfg.InProcess})

	// The counts added up per shard, one empty batch (so that the counts
	// and summary are written even when there is no line at all), and
	// each shard writer's number of lines, all grouped under one key: the
	// last step runs once every shard is written, writes the counts and
	// the summary and removes tmp. Its output is grouped and not read
	// further (see writeCountsFn: Prism busy-waits on the bundles of a
	// step without outputs, or with side inputs).
	sc := s.Scope("write counts and summary")
	merged := beam.ParDo(sc, &mergeCountsFn{}, beam.GroupByKey(sc, counts))
	merged = beam.Flatten(sc, merged, beam.ParDo(sc, &allShardsFn{Shards: 1}, impulse))
	tally := beam.Flatten(sc, beam.DropKey(sc, merged),
		beam.ParDo(sc, &writtenFn{Kind: "canonical"}, distinct), beam.ParDo(sc, &writtenFn{Kind: "rejected"}, nRejected))
	done := beam.ParDo(sc, &writeCountsFn{Counts: cfg.Output + "-counts.tsv", Summary: cfg.Output + "-summary.txt", Tmp: tmp, TopHosts: cfg.topHosts()},
		beam.GroupByKey(sc, beam.AddFixedKey(sc, tally)))
	beam.GroupByKey(sc, done)
	return nil
}

// WorkersInProcess reports whether Beam's flags, as parsed, make this
// process run every worker of the job: Prism started in-process (the
// prism runner without --endpoint, whose workers are then LOOPBACK), or
// LOOPBACK workers on a portable runner (the job service calls back into
// the submitting process for them). Config.InProcess may then be set.
func WorkersInProcess() bool {
	switch *runners.Runner {
	case "prism", "PrismRunner":
		if *jobopts.Endpoint == "" && *jobopts.EnvironmentType == "" {
			return true
		}
	case "universal", "portable", "PortableRunner", "flink", "spark":
	default:
		return false
	}
	return jobopts.IsLoopback()
}

func (c Config) shards() int {
	if c.Shards == 0 {
		return DefaultShards
	}
	return c.Shards
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

// Summary renders the summary table: totals, then one section per count
// kind, largest first. Keys are written as given: the pipeline passes
// them as they are in the counts file (quoted by linkset.Field when they
// hold a control byte).
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
			fmt.Fprintf(&b, "%s\t%d\n", h.Host, h.Count)
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
