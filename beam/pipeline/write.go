package pipeline

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn4x1[context.Context, int, func(*string) bool, func(int), error](&writeShardFn{})
	register.DoFn3x1[context.Context, int, func(*int) bool, error](&cleanupFn{})
	register.DoFn3x0[int, func(*[]byte) bool, func(int, []byte)](&mergeCountsFn{})
	register.DoFn6x1[context.Context, int, func(*[]byte) bool, func(*int) bool, func(*int) bool, func(string), error](&writeCountsFn{})
	register.DoFn2x1[context.Context, string, error](&writeSummaryFn{})
	register.DoFn2x0[[]byte, func(int, []byte)](&allShardsFn{})
	register.DoFn2x0[[]byte, func(int, string)](&allShardFilesFn{})
	register.Emitter1[int]()
	register.Iter1[[]byte]()
	register.Iter1[string]()
	register.Iter1[int]()
}

// ShardName is the name of one shard of a sharded output:
// PREFIX-KIND-SSSSS-of-NNNNN.EXT, shards numbered from 0, as Beam's
// sharded writers name them.
func ShardName(prefix, kind, ext string, shard, shards int) string {
	return fmt.Sprintf("%s-%s-%05d-of-%05d.%s", prefix, kind, shard, shards, ext)
}

// allShardsFn emits an empty batch for every shard, so that every shard
// file is written even when no line reaches it.
type allShardsFn struct{ Shards int }

func (f *allShardsFn) ProcessElement(_ []byte, emit func(int, []byte)) {
	for i := range f.Shards {
		emit(i, nil)
	}
}

// allShardFilesFn emits no file for every shard, so that every shard file
// is written even when no line reaches it.
type allShardFilesFn struct{ Shards int }

func (f *allShardFilesFn) ProcessElement(_ []byte, emit func(int, string)) {
	for i := range f.Shards {
		emit(i, "")
	}
}

// writeShards writes the batch files of each shard (shard, file name) to
// the shard's file, each line once when w.Dedup is set, and returns the
// number of lines each shard wrote.
func writeShards(s beam.Scope, files beam.PCollection, w *writeShardFn) beam.PCollection {
	s = s.Scope("write " + w.Kind)
	filesystem.ValidateScheme(w.Prefix)
	empty := beam.ParDo(s, &allShardFilesFn{Shards: w.Shards}, beam.Impulse(s))
	return beam.ParDo(s, w, beam.GroupByKey(s, beam.Flatten(s, files, empty)))
}

// writeShardFn writes one shard: the lines of its batch files, after
// Header when it is not empty; with Dedup, each line once (the batches of
// two bundles can hold the same canonical URL, and a shard has every copy
// of a URL). It emits the number of lines written. The batch files stay:
// the step may run again, and cleanupFn removes them at the end.
type writeShardFn struct {
	Prefix, Kind, Ext, Header string
	Shards                    int
	Dedup                     bool
}

func (w *writeShardFn) ProcessElement(ctx context.Context, shard int, files func(*string) bool, written func(int)) error {
	n := 0
	var seen fingerprints
	if w.Dedup {
		seen.init(1 << 12)
	}
	err := createFile(ctx, ShardName(w.Prefix, w.Kind, w.Ext, shard, w.Shards), func(bw *bufio.Writer) error {
		if w.Header != "" {
			bw.WriteString(w.Header)
			bw.WriteByte('\n')
		}
		var name string
		for files(&name) {
			if name == "" {
				continue
			}
			batch, err := readTemp(ctx, name)
			if err != nil {
				return err
			}
			if !w.Dedup {
				bw.Write(batch)
				n += bytes.Count(batch, []byte{'\n'})
				continue
			}
			for len(batch) > 0 {
				i := bytes.IndexByte(batch, '\n')
				if i < 0 {
					return fmt.Errorf("%s does not end with a line ending", name)
				}
				line := batch[:i+1]
				batch = batch[i+1:]
				u := unsafe.String(&line[0], i)
				fp := seen.of(u)
				if _, added := seen.add(fp[0], fp[1]); added {
					bw.Write(line)
					n++
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	written(n)
	return nil
}

// writeTemp writes a batch to a file of the job's temporary directory.
func writeTemp(ctx context.Context, name string, batch []byte) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("urlkit-beam: %s: %w", name, err)
	}
	defer fs.Close()
	f, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return fmt.Errorf("urlkit-beam: creating %s: %w", name, err)
	}
	if _, err := f.Write(batch); err != nil {
		f.Close()
		return fmt.Errorf("urlkit-beam: writing %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("urlkit-beam: writing %s: %w", name, err)
	}
	return nil
}

// readTemp reads a batch file.
func readTemp(ctx context.Context, name string) ([]byte, error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("urlkit-beam: %s: %w", name, err)
	}
	defer fs.Close()
	f, err := fs.OpenRead(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("urlkit-beam: opening %s: %w", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("urlkit-beam: reading %s: %w", name, err)
	}
	return b, nil
}

// cleanupFn removes the job's temporary directory once the shards are
// written (its input is every shard writer's output, grouped). A run that
// fails leaves the directory: PREFIX-tmp-*.
type cleanupFn struct {
	Dir string
}

func (c *cleanupFn) ProcessElement(ctx context.Context, _ int, _ func(*int) bool) error {
	fs, err := filesystem.New(ctx, c.Dir)
	if err != nil {
		return fmt.Errorf("urlkit-beam: %s: %w", c.Dir, err)
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	files, err := fs.List(ctx, c.Dir+"/*")
	if err != nil {
		return fmt.Errorf("urlkit-beam: listing %s: %w", c.Dir, err)
	}
	for _, f := range files {
		if err := rm.Remove(ctx, f); err != nil {
			return fmt.Errorf("urlkit-beam: removing %s: %w", f, err)
		}
	}
	// The directory itself, where directories exist (not on object
	// stores, where it went with its last file).
	rm.Remove(ctx, c.Dir)
	return nil
}

// mergeCountsFn adds up the count lines of one shard's batches and emits
// them as one batch: each count key once.
type mergeCountsFn struct{}

func (mergeCountsFn) ProcessElement(shard int, batches func(*[]byte) bool, emit func(int, []byte)) {
	sums := map[string]int{}
	var order []string
	var batch []byte
	for batches(&batch) {
		for _, line := range bytes.SplitAfter(batch, []byte{'\n'}) {
			key, n, ok := cutCount(line)
			if !ok {
				continue
			}
			if _, seen := sums[string(key)]; !seen {
				order = append(order, string(key))
			}
			sums[string(key)] += n
		}
	}
	var out []byte
	for _, k := range order {
		out = append(out, k...)
		out = append(out, '\t')
		out = strconv.AppendInt(out, int64(sums[k]), 10)
		out = append(out, '\n')
	}
	emit(shard, out)
}

// cutCount splits a count line "section<TAB>key<TAB>n\n" into
// "section<TAB>key" and n.
func cutCount(line []byte) (key []byte, n int, ok bool) {
	line = bytes.TrimSuffix(line, []byte{'\n'})
	i := bytes.LastIndexByte(line, '\t')
	if i < 0 {
		return nil, 0, false
	}
	n, err := strconv.Atoi(string(line[i+1:]))
	return line[:i], n, err == nil
}

// writeCountsFn writes the counts file (the merged count lines of every
// shard, after the header) and emits the summary, which takes the number
// of distinct canonical URLs from the canonical shards' counts. It checks
// that the rejected shards hold as many lines as the counts say.
type writeCountsFn struct {
	Counts   string
	TopHosts int
}

func (w *writeCountsFn) ProcessElement(ctx context.Context, _ int, batches func(*[]byte) bool, distinct, rejected func(*int) bool, summary func(string)) error {
	counts := map[string]map[string]int{}
	var tops hostHeap
	err := createFile(ctx, w.Counts, func(bw *bufio.Writer) error {
		bw.WriteString(CountsHeader)
		bw.WriteByte('\n')
		var batch []byte
		for batches(&batch) {
			bw.Write(batch)
			for _, line := range bytes.SplitAfter(batch, []byte{'\n'}) {
				key, n, ok := cutCount(line)
				if !ok {
					continue
				}
				sec, k, _ := strings.Cut(string(key), "\t")
				if sec == SectionHost {
					tops.offer(HostCount{k, n}, w.TopHosts)
					continue
				}
				if counts[sec] == nil {
					counts[sec] = map[string]int{}
				}
				counts[sec][k] += n
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n := sum(rejected); n != counts[SectionStatus]["rejected"] {
		return fmt.Errorf("urlkit-beam: the rejected shards hold %d lines, the counts say %d", n, counts[SectionStatus]["rejected"])
	}
	summary(Summary(counts, tops.sorted(), sum(distinct)))
	return nil
}

func sum(ints func(*int) bool) int {
	total, n := 0, 0
	for ints(&n) {
		total += n
	}
	return total
}

// writeSummaryFn writes the summary. It is a step of its own so that the
// counts step has an output: Prism busy-waits on a bundle of a step
// without outputs until the bundle ends, so such a step should be short.
type writeSummaryFn struct {
	Summary string
}

func (w *writeSummaryFn) ProcessElement(ctx context.Context, summary string) error {
	return createFile(ctx, w.Summary, func(bw *bufio.Writer) error {
		bw.WriteString(summary)
		bw.WriteByte('\n')
		return nil
	})
}

// hostHeap keeps the largest host counts: a min-heap by hostLess.
type hostHeap []HostCount

func (h hostHeap) Len() int           { return len(h) }
func (h hostHeap) Less(i, j int) bool { return hostLess(h[i], h[j]) }
func (h hostHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hostHeap) Push(x any)        { *h = append(*h, x.(HostCount)) }
func (h *hostHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// offer adds c if it is among the max largest so far.
func (h *hostHeap) offer(c HostCount, max int) {
	if h.Len() < max {
		heap.Push(h, c)
	} else if h.Len() > 0 && hostLess((*h)[0], c) {
		(*h)[0] = c
		heap.Fix(h, 0)
	}
}

// sorted returns the hosts, largest first.
func (h *hostHeap) sorted() []HostCount {
	out := make([]HostCount, h.Len())
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = heap.Pop(h).(HostCount)
	}
	return out
}

// createFile writes a file through Beam's file systems: fill writes its
// contents, which go to a temporary file beside it that is renamed to name
// once complete, so that a failed or retried write never leaves a
// half-written file under the final name (when the file system cannot
// rename, the file is written in place).
func createFile(ctx context.Context, name string, fill func(*bufio.Writer) error) (err error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("urlkit-beam: %s: %w", name, err)
	}
	defer fs.Close()
	rn, canRename := fs.(filesystem.Renamer)
	tmp := name
	if canRename {
		tmp = name + ".partial-" + strconv.FormatUint(rand.Uint64(), 36)
	}
	f, err := fs.OpenWrite(ctx, tmp)
	if err != nil {
		return fmt.Errorf("urlkit-beam: creating %s: %w", tmp, err)
	}
	defer func() {
		if err != nil && canRename {
			if rm, ok := fs.(filesystem.Remover); ok {
				rm.Remove(ctx, tmp)
			}
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if err := fill(bw); err != nil {
		f.Close()
		return fmt.Errorf("urlkit-beam: writing %s: %w", name, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("urlkit-beam: writing %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("urlkit-beam: writing %s: %w", tmp, err)
	}
	if canRename {
		if err := rn.Rename(ctx, tmp, name); err != nil {
			return fmt.Errorf("urlkit-beam: renaming %s to %s: %w", tmp, name, err)
		}
	}
	return nil
}
