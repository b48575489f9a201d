package pipeline

import (
	"bufio"
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"

	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn4x1[context.Context, int, func(*string) bool, func(int), error](&writeShardFn{})
	register.DoFn3x0[int, func(*[]byte) bool, func(int, []byte)](&mergeCountsFn{})
	register.DoFn2x0[int, func([]byte)](&writtenFn{})
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(int, int), error](&writeCountsFn{})
	register.Emitter1[[]byte]()
	register.Emitter2[int, int]()
	register.DoFn2x0[[]byte, func(int, []byte)](&allShardsFn{})
	register.DoFn2x0[[]byte, func(int, string)](&allShardFilesFn{})
	register.Emitter1[int]()
	register.Iter1[[]byte]()
	register.Iter1[string]()
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
// the shard's file, each line once when w.Dedup is set (every shard, from
// the empty batches impulse starts), and returns the
// number of lines each shard wrote.
func writeShards(s beam.Scope, impulse, files beam.PCollection, w *writeShardFn) beam.PCollection {
	s = s.Scope("write " + w.Kind)
	filesystem.ValidateScheme(w.Prefix)
	empty := beam.ParDo(s, &allShardFilesFn{Shards: w.Shards}, impulse)
	return beam.ParDo(s, w, beam.GroupByKey(s, beam.Flatten(s, files, empty)))
}

// writeShardFn writes one shard: the lines of its batch files, after
// Header when it is not empty; with Dedup, each line once (the batches of
// two bundles can hold the same canonical URL, and a shard has every copy
// of a URL). It emits the number of lines written. The batch files stay
// (but in-process: see InProcess), since the step may run again;
// writeCountsFn removes them at the end.
//
// With Dedup the writer keeps the fingerprints of the shard's URLs in a
// table sized at once for the lines its batch files hold (their names say
// how many), at most maxShardKeys; a shard with more lines is written in
// as many passes over its batch files as that bound needs, each pass
// keeping the URLs of one part of the fingerprints, so that memory stays
// bounded whatever the link set (the batch files are the spill).
type writeShardFn struct {
	Prefix, Kind, Ext, Header string
	Shards                    int
	Dedup                     bool
	// InProcess (Config.InProcess): every worker is this process, so a
	// batch file is removed as soon as it is read on the writer's last
	// pass, as the batches held in memory are dropped once the shard is
	// written (a retried writer finds neither and fails, it never writes
	// a shard short). Its pages then leave the page cache, and the
	// shard's output takes them instead of memory the machine has not
	// used lately, which on a virtual machine costs several times more a
	// byte to touch first (docs/scale.md): at 10^8 lines the batch files
	// are 6.7 GB and the outputs 6.5 GB.
	InProcess bool

	maxKeys int // maxShardKeys when zero (tests set it lower)
}

// maxShardKeys bounds the fingerprints a shard writer holds at once: a
// table of 2^23 slots of 16 bytes (maxTableBytes, 128 MiB), three
// quarters full. At 16 shards a link set of 10^8 lines gives a shard
// about 6.25 million batch lines at most (a batch line comes from an input
// line; 5.95-5.96 million measured at 95% distinct): one pass each.
const maxShardKeys = 3 << 21

// maxTableBytes bounds the bytes of a shard writer's table.
const maxTableBytes = 128 << 20

// fpTableSize is the number of slots of a shard writer's table for max
// fingerprints, a power of two: at most half full (tableSize) when that
// fits in maxTableBytes, else at most three quarters full. BenchmarkFpSet
// measures the difference (2^23 slots, random fingerprints, a group's
// first slots loaded together): 40 ns an add over the fill to half, 57 to
// three quarters, on this project's 2-core machine; a second pass over the
// batch files (each line read and hashed again, the table cleared) costs
// more than that.
func fpTableSize(max int) int {
	if n := tableSize(max); n*16 <= maxTableBytes {
		return n
	}
	n := 1
	for 3*n < 4*max {
		n <<= 1
	}
	return n
}

// shardPasses is the number of passes a shard writer makes over batch
// files holding total lines with room for maxKeys fingerprints at a time.
// A pass keeps the fingerprints of one part of the hashes, about total /
// passes of them but more in some passes than in others: beyond one pass,
// each is planned to fill seven eighths of the table, so that none has
// to grow it past the bound (the spread of a pass's share is about the
// square root of its size, a few thousand at millions of URLs).
func shardPasses(total, maxKeys int) int {
	if total <= maxKeys {
		return 1
	}
	per := max(1, maxKeys-maxKeys/8)
	return (total + per - 1) / per
}

// A shardWriter is what a shard writer works with: its fingerprint table
// and the buffer it reads batch files into. A worker process has one per
// processor (GOMAXPROCS), and a shard is written while holding one: a
// runner may hand a worker every shard at once, and more writers than
// processors would only add their tables to its memory (and the page
// faults of fresh memory to its CPU time).
type shardWriter struct {
	set *fpSet
	buf bytes.Buffer
}

var shardWriters = func() chan *shardWriter {
	n := max(1, runtime.GOMAXPROCS(0))
	c := make(chan *shardWriter, n)
	for range n {
		c <- &shardWriter{}
	}
	return c
}()

func (w *writeShardFn) ProcessElement(ctx context.Context, shard int, files func(*string) bool, written func(int)) error {
	var sw *shardWriter
	select {
	case sw = <-shardWriters:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { shardWriters <- sw }()
	var names []string
	total := 0
	var name string
	for files(&name) {
		if name == "" {
			continue
		}
		names = append(names, name)
		if n, ok := batchLines(name); ok && total >= 0 {
			total += n
		} else {
			total = -1 // an older name: no count
		}
	}
	n := 0
	buf := &sw.buf
	// load loads a batch; in-process, on the last pass, a batch file is
	// removed as soon as it is read: its pages leave the page cache, and
	// the shard's output takes them rather than fresh memory.
	load := func(name string, last bool) ([]byte, error) {
		batch, held, err := loadBatch(ctx, name, buf)
		if err == nil && w.InProcess && last && !held {
			removeFile(ctx, name)
		}
		return batch, err
	}
	err := createFile(ctx, ShardName(w.Prefix, w.Kind, w.Ext, shard, w.Shards), func(bw *bufio.Writer) error {
		if w.Header != "" {
			bw.WriteString(w.Header)
			bw.WriteByte('\n')
		}
		if !w.Dedup {
			for _, name := range names {
				batch, err := load(name, true)
				if err != nil {
					return err
				}
				bw.Write(batch)
				n += bytes.Count(batch, []byte{'\n'})
			}
			return nil
		}
		// Without a count (a name not from writeBatches) one pass, the
		// set growing as it needs.
		maxKeys := cmp.Or(w.maxKeys, maxShardKeys)
		passes := shardPasses(total, maxKeys)
		seen := sw.setFor(min(max(total, 1<<12), maxKeys))
		for pass := range passes {
			seen.reset()
			for _, name := range names {
				batch, err := load(name, pass == passes-1)
				if err != nil {
					return err
				}
				m, err := seen.writeNew(bw, batch, pass, passes)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				n += m
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	dropBatches(names, "")
	written(n)
	return nil
}

// removeFile removes a file where the file system can. A file left (an
// error) is the clean-up's: writeCountsFn removes the job's temporary
// directory.
func removeFile(ctx context.Context, name string) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return
	}
	defer fs.Close()
	if rm, ok := fs.(filesystem.Remover); ok {
		rm.Remove(ctx, name)
	}
}

// fpSet is the shard writer's set of 128-bit fingerprints (see
// fingerprinter): an open addressing table of the fingerprints alone
// (linear probing, at most three quarters full: it grows past that; the
// zero slot is empty, and a zero fingerprint is stored as (0, 1)).
type fpSet struct {
	fingerprinter
	slots   [][2]uint64
	n       int
	touched uint64 // keeps writeNew's first loads
}

// setFor returns the writer's set, empty, with room for max fingerprints
// before it grows: the table of an earlier shard when it is large enough
// (and not more than four times too large), and new seeds.
func (sw *shardWriter) setFor(max int) *fpSet {
	n := fpTableSize(max)
	if sw.set == nil || len(sw.set.slots) < n || len(sw.set.slots) > 4*n {
		sw.set = &fpSet{slots: make([][2]uint64, n)}
	}
	sw.set.reset()
	sw.set.fingerprinter = newFingerprinter()
	return sw.set
}

func (f *fpSet) reset() {
	if f.n > 0 {
		clear(f.slots)
		f.n = 0
	}
}

// add adds a fingerprint, and reports whether it was new.
func (f *fpSet) add(fp [2]uint64) bool {
	if fp == [2]uint64{} {
		fp[1] = 1
	}
	mask := uint64(len(f.slots) - 1)
	for i := fp[1] & mask; ; i = (i + 1) & mask {
		s := &f.slots[i]
		if *s == fp {
			return false
		}
		if *s == [2]uint64{} {
			if 4*(f.n+1) > 3*len(f.slots) {
				// Past three quarters: a table twice as large, where
				// the fingerprint goes on probing. (A fingerprint
				// already there is found without growing.)
				f.grow()
				return f.add(fp)
			}
			*s = fp
			f.n++
			return true
		}
	}
}

func (f *fpSet) grow() {
	old := f.slots
	f.slots = make([][2]uint64, 2*len(old))
	mask := uint64(len(f.slots) - 1)
	for _, s := range old {
		if s == [2]uint64{} {
			continue
		}
		i := s[1] & mask
		for f.slots[i] != [2]uint64{} {
			i = (i + 1) & mask
		}
		f.slots[i] = s
	}
}

// writeNew writes the lines of batch whose fingerprints are in this pass's
// part (the first hash modulo passes) and not yet in the set, and returns
// how many it wrote. The lines are looked up groupSize at a time, their
// slots loaded together first (the table is larger than the caches; see
// bundle.drain).
func (f *fpSet) writeNew(bw *bufio.Writer, batch []byte, pass, passes int) (int, error) {
	var (
		lines [groupSize][]byte
		fps   [groupSize][2]uint64
		n     int
		touch uint64
	)
	for len(batch) > 0 {
		g := 0
		for g < groupSize && len(batch) > 0 {
			i := bytes.IndexByte(batch, '\n')
			if i < 0 {
				return n, errors.New("the batch does not end with a line ending")
			}
			line := batch[:i+1]
			batch = batch[i+1:]
			fp := f.of(unsafe.String(&line[0], i))
			if passes > 1 && fp[0]%uint64(passes) != uint64(pass) {
				continue
			}
			lines[g], fps[g] = line, fp
			g++
		}
		touch += f.load(fps[:g])
		for i := range g {
			if f.add(fps[i]) {
				bw.Write(lines[i])
				n++
			}
		}
	}
	f.touched += touch
	return n, nil
}

// load loads the first slot of each fingerprint's probe, in a loop of
// nothing else, so that the loads are in flight together; the sum it
// returns is kept so that the loads are not optimized away.
func (f *fpSet) load(fps [][2]uint64) uint64 {
	var touch uint64
	mask := uint64(len(f.slots) - 1)
	for _, fp := range fps {
		touch += f.slots[fp[1]&mask][0]
	}
	return touch
}

// writeSize is the size of the writes to the output and batch files. On
// this project's machine (ext4, Linux) a write of a megabyte or more to a
// new file cost from 1 to 2.8 ns of system time a byte where writes of 64
// KiB cost 0.25-0.35: the shard writers' 1 MiB writes were 1.23 s of a
// BenchmarkDistinct profile, 0.16 s in 64 KiB writes.
const writeSize = 64 << 10

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
	for len(batch) > 0 {
		n := min(len(batch), writeSize)
		if _, err := f.Write(batch[:n]); err != nil {
			f.Close()
			return fmt.Errorf("urlkit-beam: writing %s: %w", name, err)
		}
		batch = batch[n:]
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("urlkit-beam: writing %s: %w", name, err)
	}
	return nil
}

// loadBatch returns the batch named name: the one held in memory under
// that name (see memBatches), else its file's contents, read into buf.
func loadBatch(ctx context.Context, name string, buf *bytes.Buffer) (batch []byte, held bool, err error) {
	if batch, ok := heldBatch(name); ok {
		return batch, true, nil
	}
	if err := readTemp(ctx, name, buf); err != nil {
		return nil, false, err
	}
	return buf.Bytes(), false, nil
}

// readTemp reads a batch file into buf, replacing what it held.
func readTemp(ctx context.Context, name string, buf *bytes.Buffer) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("urlkit-beam: %s: %w", name, err)
	}
	defer fs.Close()
	f, err := fs.OpenRead(ctx, name)
	if err != nil {
		return fmt.Errorf("urlkit-beam: opening %s: %w", name, err)
	}
	defer f.Close()
	buf.Reset()
	if _, err := buf.ReadFrom(f); err != nil {
		return fmt.Errorf("urlkit-beam: reading %s: %w", name, err)
	}
	return nil
}

// removeTmp removes the job's temporary directory and the batches held
// in memory under it, once the shards are written. A run that fails
// leaves the directory: PREFIX-tmp-*.
func removeTmp(ctx context.Context, dir string) error {
	dropBatches(nil, dir)
	fs, err := filesystem.New(ctx, dir)
	if err != nil {
		return fmt.Errorf("urlkit-beam: %s: %w", dir, err)
	}
	defer fs.Close()
	rm, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	files, err := fs.List(ctx, dir+"/*")
	if err != nil {
		return fmt.Errorf("urlkit-beam: listing %s: %w", dir, err)
	}
	for _, f := range files {
		if err := rm.Remove(ctx, f); err != nil {
			return fmt.Errorf("urlkit-beam: removing %s: %w", f, err)
		}
	}
	// The directory itself, where directories exist (not on object
	// stores, where it went with its last file).
	rm.Remove(ctx, dir)
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

// sectionWritten is the section of the shard writers' count lines (key
// the output's kind, "canonical" or "rejected"; count the lines a shard
// wrote): they go to writeCountsFn with the counts, in batches of their
// own, and not to the counts file.
const sectionWritten = "written"

// writtenFn turns the number of lines a shard writer wrote into a count
// line of sectionWritten.
type writtenFn struct{ Kind string }

func (f *writtenFn) ProcessElement(n int, emit func([]byte)) {
	emit(appendCount(nil, sectionWritten, f.Kind, n))
}

// writeCountsFn is the job's last step, run once every shard is written
// (its input, grouped under one key, holds every shard writer's count):
// it writes the counts file (the merged count lines of every shard, after
// the header), checks that the rejected shards hold as many lines as the
// counts say, writes the summary, which takes the number of distinct
// canonical URLs from the canonical shards' counts, and removes the job's
// temporary directory Tmp.
//
// It emits one element, which a GroupByKey takes and nothing reads: Prism
// (Beam 2.77, stage.Execute) busy-waits on the bundle of a step without an
// output until it ends, and its element manager on the bundle of a step
// with side inputs, which is why the shard writers' counts come here with
// the other counts rather than as side inputs.
type writeCountsFn struct {
	Counts, Summary, Tmp string
	TopHosts             int
}

func (w *writeCountsFn) ProcessElement(ctx context.Context, _ int, batches func(*[]byte) bool, done func(int, int)) error {
	counts := map[string]map[string]int{}
	var tops hostHeap
	written := map[string]int{}
	err := createFile(ctx, w.Counts, func(bw *bufio.Writer) error {
		bw.WriteString(CountsHeader)
		bw.WriteByte('\n')
		var batch []byte
		for batches(&batch) {
			ofWriters := bytes.HasPrefix(batch, []byte(sectionWritten+"\t"))
			if !ofWriters {
				bw.Write(batch)
			}
			for _, line := range bytes.SplitAfter(batch, []byte{'\n'}) {
				key, n, ok := cutCount(line)
				if !ok {
					continue
				}
				sec, k, _ := strings.Cut(string(key), "\t")
				switch {
				case ofWriters:
					written[k] += n
				case sec == SectionHost:
					tops.offer(HostCount{k, n}, w.TopHosts)
				default:
					if counts[sec] == nil {
						counts[sec] = map[string]int{}
					}
					counts[sec][k] += n
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if n := written["rejected"]; n != counts[SectionStatus]["rejected"] {
		return fmt.Errorf("urlkit-beam: the rejected shards hold %d lines, the counts say %d", n, counts[SectionStatus]["rejected"])
	}
	summary := Summary(counts, tops.sorted(), written["canonical"])
	err = createFile(ctx, w.Summary, func(bw *bufio.Writer) error {
		bw.WriteString(summary)
		bw.WriteByte('\n')
		return nil
	})
	if err != nil {
		return err
	}
	if err := removeTmp(ctx, w.Tmp); err != nil {
		return err
	}
	done(0, 0)
	return nil
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
	bw := bufio.NewWriterSize(f, writeSize)
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
