package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/urlkit/urlkit/linkset"
)

// A bundle is what one reading DoFn gathers over a bundle before anything
// leaves the worker: the canonical URLs not yet seen in the bundle and the
// rejected lines, each in one text batch per output shard, and the counts
// per status, scheme, host and rejection kind. A batch is written to a
// file of the job's temporary directory and only its name is emitted, with
// its shard; the counts are emitted as one element per shard. So the
// runner encodes, stores and shuffles a handful of small elements per
// bundle instead of one per line, and the lines go from the reading worker
// to the shard's writer through the file system, as the outputs do.
//
// Memory stays bounded whatever the bundle: the URLs seen are forgotten
// when there are maxBundleKeys of them (a URL seen again is then sent
// again, and the shard writer keeps it once), the canonical batches are
// written when they hold maxBatchBytes, the rejected batches too, and the
// host counts are emitted when they hold maxBundleKeys hosts. Large
// batches keep the files few: each file costs its creation, and on an
// object store a request.
type bundle struct {
	opt    linkset.Options
	shards int

	// seen holds the canonical URLs in the batches. A URL's scheme and
	// host are counted when it is first seen (its record's strings are at
	// hand then), and its further lines are counted in its batchURL and
	// added when the batches are emitted, so that a line whose URL is in
	// seen costs one look-up. A URL's slot in seen says where its text is
	// in its batch until the URL is seen again, and then which of urls is
	// its batchURL: most URLs of a crawl's link set are seen once, and
	// cost no batchURL.
	seen fingerprints
	urls []batchURL // the URLs of seen that were seen again

	// The valid and repaired lines whose URLs are yet to be looked up in
	// seen, a group at a time (see drain); their strings are views of
	// arena, where the reader copies its lines.
	group                [groupSize]linkset.Record
	ng                   int
	arena                []byte
	touch                uint64   // keeps drain's first loads
	canon                [][]byte // per shard: canonical URLs, one a line
	rejected             [][]byte // per shard: linkset.RejectedLine, one a line
	canonN, rejN         []int    // per shard: lines in canon and in rejected
	canonBytes, rejBytes int      // bytes in canon and in rejected

	status                [3]int // by linkset.Status
	schemes, hosts, kinds counter
	counted               bool              // any count since the last flush
	reasons               map[string]string // see reasonField

	ctx      context.Context
	tmp      string // the job's temporary directory
	inMemory bool   // batches go to memBatches when they fit
	name     string // this bundle's, for its files' names
	flushes  int
	err      error // the first error writing a batch

	canonEmit, rejEmit fileFn
	countsEmit         emitFn
}

// A batchURL is where a canonical URL of seen is in its shard's batch,
// where its scheme and host are in it (offsets from its start), and how
// many lines gave it after the first, which was counted as it came. n is
// -1 when the record's scheme or host is not in the URL's text as it is:
// then each line counts them as it comes.
type batchURL struct {
	shard, start       int32
	hostStart, hostLen int32
	n                  int32
	schemeLen          int16
}

// emitFn emits one batch: a shard number and its lines; fileFn emits a
// shard number and the name of a file holding a batch.
type (
	emitFn = func(int, []byte)
	fileFn = func(int, string)
)

const (
	// maxBatchBytes bounds the bytes a bundle holds in its canonical
	// batches, and in its rejected ones.
	maxBatchBytes = 32 << 20
	// maxBundleKeys bounds the URLs a bundle remembers and the hosts it
	// counts before emitting them.
	maxBundleKeys = 1 << 17
)

// start resets b for a new bundle writing its batches under tmp (or
// holding them in memory, up to memBatches' bound, when inMemory: every
// worker is this process) and emitting to the given emitters.
func (b *bundle) start(ctx context.Context, opt linkset.Options, shards int, tmp string, inMemory bool, canon, rejected fileFn, counts emitFn) {
	b.ctx, b.opt, b.shards, b.tmp, b.inMemory = ctx, opt, shards, tmp, inMemory
	b.canonEmit, b.rejEmit, b.countsEmit = canon, rejected, counts
	b.name = strconv.FormatUint(rand.Uint64(), 36)
	b.flushes, b.err = 0, nil
	if b.seen.slots == nil {
		b.seen.init(maxBundleKeys)
	}
	if len(b.canon) != shards {
		b.canon = make([][]byte, shards)
		b.rejected = make([][]byte, shards)
		b.canonN = make([]int, shards)
		b.rejN = make([]int, shards)
	}
	b.seen.reset()
	b.urls = b.urls[:0]
}

// groupSize is how many URLs drain looks up together.
const groupSize = 16

// keep copies a line into the arena and returns it as a string valid
// until the next drain: the reader's buffer can then be reused.
func (b *bundle) keep(line []byte) string {
	start := len(b.arena)
	b.arena = append(b.arena, line...)
	return unsafe.String(&b.arena[start], len(line))
}

// line reads one input line by the command line's rule and records it.
// The line must stay as it is until the next drain (a string, or a view
// of the arena from keep).
func (b *bundle) line(s string) {
	s, ok := linkset.Line(s)
	if !ok {
		return
	}
	b.record(linkset.Classify(s, b.opt))
}

// record adds one classified line: a rejected line at once, a valid or
// repaired one to the group drain looks up. The record's strings may share
// the input line's memory: what is kept is copied.
func (b *bundle) record(r linkset.Record) {
	b.status[r.Status]++
	b.counted = true
	if r.Status != linkset.Rejected {
		b.group[b.ng] = r
		if b.ng++; b.ng == groupSize {
			b.drain()
		}
		return
	}
	b.kinds.add(r.Kind, 1)
	sh := shardOf(r.Input, b.shards)
	n := len(b.rejected[sh])
	batch := batchRoom(b.rejected[sh], b.shards)
	b.rejected[sh] = append(linkset.AppendRejectedLine(batch, r, b.reasonField(r.Reason)), '\n')
	b.rejN[sh]++
	b.rejBytes += len(b.rejected[sh]) - n
	if b.rejBytes >= maxBatchBytes {
		// The rejected lines only: the URLs seen stay.
		b.writeBatches("rejected", b.rejected, b.rejN, b.rejEmit)
		b.rejBytes = 0
	}
}

// drain looks up the group's URLs in seen: their fingerprints first, then
// one load of each URL's slot in a loop of nothing else, so that the loads
// are in flight together (the table is larger than the caches, and a
// look-up one at a time would wait for each), then the look-ups.
func (b *bundle) drain() {
	g := b.group[:b.ng]
	var fp [groupSize][2]uint64
	for i := range g {
		// The URL's shard hash, the same on every worker, is half its
		// fingerprint here: the URL is hashed twice, not three times.
		// The other half, with this bundle's random seed, places it.
		fp[i] = [2]uint64{xxhash.Sum64String(g[i].Canonical), maphash.String(b.seen.s2, g[i].Canonical)}
	}
	t := uint64(0)
	mask := uint64(len(b.seen.slots) - 1)
	for i := range g {
		t += b.seen.slots[fp[i][1]&mask].at
	}
	b.touch += t
	for i := range g {
		r := &g[i]
		sh := shardOfHash(fp[i][0], b.shards)
		slot, added := b.seen.add(fp[i][0], fp[i][1], textAt(sh, len(b.canon[sh])))
		if added {
			b.canon[sh] = appendLine(b.canon[sh], r.Canonical, b.shards)
			b.canonN[sh]++
			b.canonBytes += len(r.Canonical) + 1
		} else if u := b.seenAgain(slot, r); u.n >= 0 {
			u.n++
		}
		if added || b.urls[slot.at&^urlAt].n < 0 {
			b.schemes.add(r.Scheme, 1)
			if r.Host != "" {
				b.hosts.add(r.Host, 1)
			}
		}
		*r = linkset.Record{}
		if b.seen.len() >= maxBundleKeys {
			b.forget()
		}
		if b.canonBytes >= maxBatchBytes {
			b.forget()
			b.writeBatches("canonical", b.canon, b.canonN, b.canonEmit)
			b.canonBytes = 0
		}
		if b.hosts.len() >= maxBundleKeys {
			b.flushCounts()
		}
	}
	b.ng = 0
	b.arena = b.arena[:0]
}

// A slot of seen says where its URL is (its at): for a URL seen once, in
// which shard's batch and from which byte (textAt); for a URL seen again,
// which of urls is its batchURL (urlAt and the index).
const (
	textAtFlag = 1 << 62
	urlAt      = 1 << 63
)

// textAt is the at of a URL from byte start of shard sh's batch.
func textAt(sh, start int) uint64 {
	return textAtFlag | uint64(sh)<<32 | uint64(uint32(start))
}

// seenAgain returns the batchURL of the URL of slot, seen again in r: the
// URL's batchURL is made the first time (n 0), where the record's scheme
// and host are in the URL's text noted.
func (b *bundle) seenAgain(slot *fingerprint, r *linkset.Record) *batchURL {
	if slot.at&urlAt != 0 {
		return &b.urls[slot.at&^urlAt]
	}
	u := batchURL{shard: int32(slot.at >> 32 & (1<<30 - 1)), start: int32(uint32(slot.at))}
	if len(r.Scheme) < 1<<15 && strings.HasPrefix(r.Canonical, r.Scheme) {
		u.schemeLen = int16(len(r.Scheme))
	} else {
		u.n = -1
	}
	if r.Host != "" {
		if i := within(r.Canonical, r.Host); i >= 0 {
			u.hostStart, u.hostLen = int32(i), int32(len(r.Host))
		} else {
			u.n = -1
		}
	}
	slot.at = urlAt | uint64(len(b.urls))
	b.urls = append(b.urls, u)
	return &b.urls[len(b.urls)-1]
}

// appendLine appends a line and its line ending to a shard's batch. An
// empty batch is first given room for its share of maxBatchBytes and an
// eighth more, in one allocation: grown by append, a batch of megabytes
// would be copied (and its fresh memory faulted in) several times over.
func appendLine(batch []byte, line string, shards int) []byte {
	return append(append(batchRoom(batch, shards), line...), '\n')
}

// batchRoom returns batch, or for an empty batch without room, one with
// room for its share of maxBatchBytes and an eighth more (see appendLine).
func batchRoom(batch []byte, shards int) []byte {
	if cap(batch) == 0 {
		share := maxBatchBytes / shards
		batch = make([]byte, 0, share+share/8+256)
	}
	return batch
}

// maxReasons bounds the rejection reasons a bundle keeps quoted.
const maxReasons = 1024

// reasonField returns linkset.Field(reason), from the reasons already
// quoted in the bundle when it is one of them: a reason is one of a few
// sentences (the same character breaking the same rule), and most of them
// hold a double quote, which Field quotes, a rune at a time.
func (b *bundle) reasonField(reason string) string {
	if f, ok := b.reasons[reason]; ok {
		return f
	}
	f := linkset.Field(reason)
	if b.reasons == nil || len(b.reasons) >= maxReasons {
		b.reasons = make(map[string]string)
	}
	b.reasons[strings.Clone(reason)] = strings.Clone(f)
	return f
}

// within returns the offset of sub in s: found from their addresses when
// sub is a view of s's memory (a record's host usually is a view of its
// canonical URL), else by searching; -1 when s does not hold it.
func within(s, sub string) int {
	if len(sub) > 0 && len(sub) <= len(s) {
		d := uintptr(unsafe.Pointer(unsafe.StringData(sub))) - uintptr(unsafe.Pointer(unsafe.StringData(s)))
		if d <= uintptr(len(s)-len(sub)) {
			return int(d)
		}
	}
	return strings.Index(s, sub)
}

// countURLs adds the further lines of each URL of seen (those after the
// first, which was counted as it came) to its scheme's and host's counts.
// The URLs are taken in the order they were seen again.
func (b *bundle) countURLs() {
	for _, u := range b.urls {
		if u.n <= 0 {
			continue
		}
		n := int(u.n)
		text := b.canon[u.shard][u.start:]
		b.schemes.addBytes(text[:u.schemeLen], n)
		if u.hostLen > 0 {
			b.hosts.addBytes(text[u.hostStart:u.hostStart+u.hostLen], n)
		}
	}
}

// A counter counts by key: a map from the key to its place in the
// slices, so that adding to a key already there (found without copying a
// []byte key) allocates nothing. The key added last is compared first:
// the lines of a link set come in runs of one scheme and often of one
// host.
type counter struct {
	index map[string]int
	keys  []string
	n     []int
	last  int // index + 1 of the key added last; 0 for none
}

// add adds n to k's count, copying k when it is new (the caller's string
// may share memory that is reused).
func (c *counter) add(k string, n int) {
	if c.last > 0 && c.keys[c.last-1] == k {
		c.n[c.last-1] += n
		return
	}
	if i, ok := c.index[k]; ok {
		c.n[i] += n
		c.last = i + 1
		return
	}
	c.insert(strings.Clone(k), n)
}

// addBytes adds n to the count of string(k).
func (c *counter) addBytes(k []byte, n int) {
	if c.last > 0 && c.keys[c.last-1] == string(k) {
		c.n[c.last-1] += n
		return
	}
	if i, ok := c.index[string(k)]; ok {
		c.n[i] += n
		c.last = i + 1
		return
	}
	c.insert(string(k), n)
}

func (c *counter) insert(k string, n int) {
	if c.index == nil {
		c.index = make(map[string]int)
	}
	c.index[k] = len(c.keys)
	c.keys = append(c.keys, k)
	c.n = append(c.n, n)
	c.last = len(c.keys)
}

func (c *counter) len() int { return len(c.keys) }

func (c *counter) reset() {
	clear(c.index)
	clear(c.keys)
	c.keys, c.n, c.last = c.keys[:0], c.n[:0], 0
}

// shardOf returns the output shard of a line: a hash of its text, the same
// on every worker, so that one canonical URL always reaches one shard.
func shardOf(s string, shards int) int {
	return shardOfHash(xxhash.Sum64String(s), shards)
}

// shardOfHash is the shard of a line whose xxhash is h.
func shardOfHash(h uint64, shards int) int {
	return int(h % uint64(shards))
}

// A fingerprinter gives 128-bit fingerprints of strings: two hashes of
// the string with two random seeds (hash/maphash, the hash of Go's maps).
// Two different URLs have the same fingerprint with a probability of
// about 2^-128, so a URL is taken for one seen before with a probability
// below 10^-28 even after 10^10 URLs. (The seeds are the process's own:
// fingerprints are never compared across workers.)
type fingerprinter struct{ s1, s2 maphash.Seed }

func newFingerprinter() fingerprinter {
	return fingerprinter{maphash.MakeSeed(), maphash.MakeSeed()}
}

// of is the fingerprint of s. The second hash places it in a table.
func (f fingerprinter) of(s string) [2]uint64 {
	return [2]uint64{maphash.String(f.s1, s), maphash.String(f.s2, s)}
}

// tableSize is the number of slots of a table for max entries, at most
// half full: a power of two.
func tableSize(max int) int {
	n := 1
	for n < 2*max {
		n <<= 1
	}
	return n
}

// fingerprints is the bundle's set of 128-bit fingerprints (a URL's
// xxhash, which gives its shard, and its hash/maphash with the set's
// seed s2, which places it in the table: a URL is taken for another only
// if both hashes are equal, and the second's seed is random), each with
// where its URL is (see textAt), in an open addressing table (linear
// probing, at most half full: the bundle empties it before), so that
// looking a URL up touches one slot where a map of strings would read the
// URL again.
type fingerprints struct {
	fingerprinter
	slots []fingerprint
	n     int
}

type fingerprint struct {
	a, b uint64
	at   uint64 // where the URL is (see textAt); 0 marks an empty slot
}

// init makes room for max fingerprints.
func (f *fingerprints) init(max int) {
	f.slots = make([]fingerprint, tableSize(max))
	f.fingerprinter = newFingerprinter()
}

// len is the number of fingerprints in the set.
func (f *fingerprints) len() int { return f.n }

// add adds the fingerprint (a, b) if it is new, at at (not zero), and
// returns its slot and whether it was new. The set must have room (len
// below its max).
func (f *fingerprints) add(a, b, at uint64) (slot *fingerprint, added bool) {
	mask := uint64(len(f.slots) - 1)
	for i := b & mask; ; i = (i + 1) & mask {
		s := &f.slots[i]
		if s.at == 0 {
			f.n++
			s.a, s.b, s.at = a, b, at
			return s, true
		}
		if s.a == a && s.b == b {
			return s, false
		}
	}
}

func (f *fingerprints) reset() {
	if f.n > 0 {
		clear(f.slots)
		f.n = 0
	}
}

// finish emits everything b holds, and returns the first error writing a
// batch.
func (b *bundle) finish() error {
	b.drain()
	b.flushBatches()
	b.flushCounts()
	b.canonEmit, b.rejEmit, b.countsEmit, b.ctx = nil, nil, nil, nil
	return b.err
}

// flushBatches counts the schemes and hosts of the URLs in the batches,
// writes the non-empty batches to files and emits their names. After an
// error (in b.err) it writes no more.
func (b *bundle) flushBatches() {
	b.forget()
	b.writeBatches("canonical", b.canon, b.canonN, b.canonEmit)
	b.writeBatches("rejected", b.rejected, b.rejN, b.rejEmit)
	b.canonBytes, b.rejBytes = 0, 0
}

// forget empties seen, once the further lines of its URLs are counted: a
// URL seen again is then added to the batch again (the shard writer keeps
// it once). The batches stay.
func (b *bundle) forget() {
	b.countURLs()
	b.seen.reset()
	b.urls = b.urls[:0]
}

// writeBatches writes each non-empty batch to a file of its own and emits
// its name, which ends in the batch's number of lines (see batchLines);
// the batches are then empty, for reuse.
func (b *bundle) writeBatches(kind string, batches [][]byte, lines []int, emit fileFn) {
	for sh, batch := range batches {
		if len(batch) == 0 {
			continue
		}
		if b.err == nil {
			b.flushes++
			name := fmt.Sprintf("%s/%s-%d-%s-%05d-%d", b.tmp, b.name, b.flushes, kind, sh, lines[sh])
			if b.inMemory {
				// A batch filling less than half its room is copied, its
				// room kept for the next; a fuller one is handed over,
				// and the shard's next batch gets room of its own.
				held := batch
				if len(batch) < cap(batch)/2 {
					held = bytes.Clone(batch)
				}
				if keepBatch(name, held) {
					emit(sh, name)
					if len(held) == len(batch) && &held[0] == &batch[0] {
						batch = nil
					}
					batches[sh], lines[sh] = batch[:0], 0
					continue
				}
			}
			if b.err = writeTemp(b.ctx, name, batch); b.err == nil {
				emit(sh, name)
			}
		}
		batches[sh] = batch[:0]
		lines[sh] = 0
	}
}

// batchLines is the number of lines of a batch file, from its name (see
// writeBatches); ok is false for a name that does not end in one.
func batchLines(name string) (n int, ok bool) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(name[i+1:])
	return n, err == nil && n >= 0
}

// flushCounts emits the counts as count lines ("section<TAB>key<TAB>n"),
// one batch per shard: the hosts by a hash of the host, the small sections
// in shard 0, so that two shards never hold the same count key.
func (b *bundle) flushCounts() {
	if !b.counted {
		return
	}
	out := make([][]byte, b.shards)
	for st, n := range b.status {
		if n > 0 {
			out[0] = appendCount(out[0], SectionStatus, linkset.Status(st).String(), n)
		}
	}
	for i, k := range b.schemes.keys {
		out[0] = appendCount(out[0], SectionScheme, k, b.schemes.n[i])
	}
	for i, k := range b.kinds.keys {
		out[0] = appendCount(out[0], SectionKind, k, b.kinds.n[i])
	}
	for i, k := range b.hosts.keys {
		sh := shardOf(k, b.shards)
		out[sh] = appendCount(out[sh], SectionHost, k, b.hosts.n[i])
	}
	for sh, batch := range out {
		if len(batch) > 0 {
			b.countsEmit(sh, batch)
		}
	}
	b.status = [3]int{}
	b.schemes.reset()
	b.hosts.reset()
	b.kinds.reset()
	b.counted = false
}

// appendCount appends one count line; the key is quoted by linkset.Field
// if it holds a tab or a control byte, so a count line is always three
// fields.
func appendCount(dst []byte, section, key string, n int) []byte {
	dst = append(dst, section...)
	dst = append(dst, '\t')
	dst = append(dst, linkset.Field(key)...)
	dst = append(dst, '\t')
	dst = strconv.AppendInt(dst, int64(n), 10)
	return append(dst, '\n')
}
