package pipeline

import (
	"hash/maphash"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/urlkit/urlkit/linkset"
)

// A bundle is what one reading DoFn gathers over a bundle before anything
// leaves the worker: the canonical URLs not yet seen in the bundle and the
// rejected lines, each in one text batch per output shard, and the counts
// per status, scheme, host and rejection kind. The batches and the counts
// are emitted as a few large elements (shard, lines) instead of one element
// per line, which is what makes the pipeline cheap per line: the runner
// encodes, stores and shuffles a handful of byte slices per bundle.
//
// Memory stays bounded whatever the bundle: the batches are emitted when
// they hold maxBatchBytes or maxBundleKeys URLs (the URLs seen are then
// forgotten: a URL seen again is sent again, and the shard writer keeps it
// once), and the host counts when they hold maxBundleKeys hosts.
type bundle struct {
	opt    linkset.Options
	shards int

	// seen holds the canonical URLs in the batches, each with the number
	// of valid or repaired lines that gave it; their schemes and hosts are
	// counted from these numbers when the batches are emitted, so that a
	// line whose URL is in seen costs one look-up.
	seen     fingerprints
	urls     []batchURL // by fingerprint index
	canon    [][]byte   // per shard: canonical URLs, one a line
	rejected [][]byte   // per shard: linkset.RejectedLine, one a line
	buffered int        // bytes in canon and rejected

	status                [3]int // by linkset.Status
	schemes, hosts, kinds map[string]int
	counted               bool // any count since the last flush

	canonEmit, rejEmit, countsEmit emitFn
}

// A batchURL is where a canonical URL of seen is in its shard's batch,
// and where its scheme and host are in it: offsets from its start, or -1
// when the record's scheme or host is not in the URL's text as it is (then
// each line counts it as it comes).
type batchURL struct {
	shard, start       int32
	schemeLen          int16
	hostStart, hostLen int32
}

// emitFn emits one batch: a shard number and its lines.
type emitFn = func(int, []byte)

const (
	// maxBatchBytes bounds the bytes a bundle holds in its batches.
	maxBatchBytes = 8 << 20
	// maxBundleKeys bounds the URLs a bundle remembers and the hosts it
	// counts before emitting them.
	maxBundleKeys = 1 << 17
)

// start resets b for a new bundle writing to the given emitters.
func (b *bundle) start(opt linkset.Options, shards int, canon, rejected, counts emitFn) {
	b.opt, b.shards = opt, shards
	b.canonEmit, b.rejEmit, b.countsEmit = canon, rejected, counts
	if b.schemes == nil {
		b.seen.init(maxBundleKeys)
		b.schemes = make(map[string]int)
		b.hosts = make(map[string]int)
		b.kinds = make(map[string]int)
	}
	if len(b.canon) != shards {
		b.canon = make([][]byte, shards)
		b.rejected = make([][]byte, shards)
	}
	b.seen.reset()
	b.urls = b.urls[:0]
}

// line reads one input line by the command line's rule and records it.
// The line may be a view of the reader's buffer: record keeps none of its
// strings (it copies what it keeps), so the caller need not copy the line.
func (b *bundle) line(s string) {
	s, ok := linkset.Line(s)
	if !ok {
		return
	}
	b.record(linkset.Classify(s, b.opt))
}

// record adds one classified line. The record's strings may share the
// input line's memory, which the caller reuses: what is kept is copied.
func (b *bundle) record(r linkset.Record) {
	b.status[r.Status]++
	b.counted = true
	if r.Status == linkset.Rejected {
		increment(b.kinds, r.Kind)
		sh := shardOf(r.Input, b.shards)
		n := len(b.rejected[sh])
		b.rejected[sh] = append(append(b.rejected[sh], linkset.RejectedLine(r)...), '\n')
		b.buffered += len(b.rejected[sh]) - n
	} else {
		h := xxhash.Sum64String(r.Canonical)
		i, added := b.seen.add(h, maphash.String(b.seen.seed, r.Canonical))
		if added {
			b.addURL(r, int(h%uint64(b.shards)))
		}
		if u := &b.urls[i]; u.schemeLen < 0 || u.hostStart < 0 {
			// Counted per line.
			increment(b.schemes, r.Scheme)
			if r.Host != "" {
				increment(b.hosts, r.Host)
			}
			b.seen.counts[i] = 0
		}
	}
	if b.buffered >= maxBatchBytes || b.seen.len() >= maxBundleKeys {
		b.flushBatches()
	}
	if len(b.hosts) >= maxBundleKeys {
		b.flushCounts()
	}
}

// addURL appends a canonical URL to its shard's batch and notes where its
// scheme and host are.
func (b *bundle) addURL(r linkset.Record, sh int) {
	u := batchURL{shard: int32(sh), start: int32(len(b.canon[sh])), schemeLen: -1, hostStart: -1}
	if len(r.Scheme) < 1<<15 && strings.HasPrefix(r.Canonical, r.Scheme) {
		u.schemeLen = int16(len(r.Scheme))
	}
	if r.Host == "" {
		u.hostStart, u.hostLen = 0, 0
	} else if i := strings.Index(r.Canonical, r.Host); i >= 0 {
		u.hostStart, u.hostLen = int32(i), int32(len(r.Host))
	}
	b.urls = append(b.urls, u)
	b.canon[sh] = append(append(b.canon[sh], r.Canonical...), '\n')
	b.buffered += len(r.Canonical) + 1
}

// countURLs adds the lines of each URL of seen to its scheme's and host's
// counts.
func (b *bundle) countURLs() {
	for i, u := range b.urls {
		n := int(b.seen.counts[i])
		if n == 0 {
			continue
		}
		text := b.canon[u.shard][u.start:]
		addCount(b.schemes, text[:u.schemeLen], n)
		if u.hostLen > 0 {
			addCount(b.hosts, text[u.hostStart:u.hostStart+u.hostLen], n)
		}
	}
}

// addCount adds n to m[k].
func addCount(m map[string]int, k []byte, n int) {
	if old, ok := m[string(k)]; ok {
		m[string(k)] = old + n
	} else {
		m[string(k)] = n
	}
}

// increment adds one to m[k], copying k when it is a new key.
func increment(m map[string]int, k string) {
	if n, ok := m[k]; ok {
		m[k] = n + 1
	} else {
		m[strings.Clone(k)] = 1
	}
}

// shardOf returns the output shard of a line: a hash of its text, the same
// on every worker, so that one canonical URL always reaches one shard.
func shardOf(s string, shards int) int {
	return int(xxhash.Sum64String(s) % uint64(shards))
}

// fingerprints is a set of 128-bit fingerprints of strings, each with an
// index (the order it was added in) and a count, in an open addressing
// table (linear probing, at most half full), so that looking a URL up
// touches one slot where a map of strings would read the URL again. The
// pairs (xxhash, maphash with a seed of the process) of two different URLs
// are equal with a probability of about 2^-128, so a URL is taken for one
// seen before with a probability below 10^-28 even after 10^10 URLs.
type fingerprints struct {
	slots  []fingerprint
	counts []uint32 // by index: how many times add met the fingerprint
	seed   maphash.Seed
}

type fingerprint struct {
	a, b uint64
	i    int // index + 1; 0 marks an empty slot
}

// init makes room for max fingerprints.
func (f *fingerprints) init(max int) {
	n := 1
	for n < 2*max {
		n <<= 1
	}
	f.slots = make([]fingerprint, n)
	f.counts = make([]uint32, 0, max)
	f.seed = maphash.MakeSeed()
}

// len is the number of fingerprints in the set.
func (f *fingerprints) len() int { return len(f.counts) }

// add counts the fingerprint (a, b), adding it if it is new, and returns
// its index and whether it was new.
func (f *fingerprints) add(a, b uint64) (index int, added bool) {
	mask := uint64(len(f.slots) - 1)
	for i := b & mask; ; i = (i + 1) & mask {
		s := &f.slots[i]
		if s.i == 0 {
			s.a, s.b, s.i = a, b, len(f.counts)+1
			f.counts = append(f.counts, 1)
			return s.i - 1, true
		}
		if s.a == a && s.b == b {
			f.counts[s.i-1]++
			return s.i - 1, false
		}
	}
}

func (f *fingerprints) reset() {
	if len(f.counts) > 0 {
		clear(f.slots)
		f.counts = f.counts[:0]
	}
}

// finish emits everything b holds.
func (b *bundle) finish() {
	b.flushBatches()
	b.flushCounts()
	b.canonEmit, b.rejEmit, b.countsEmit = nil, nil, nil
}

// flushBatches counts the schemes and hosts of the URLs in the batches and
// emits the non-empty batches; a batch emitted is never written to again
// (the runner may still hold it).
func (b *bundle) flushBatches() {
	b.countURLs()
	for sh, batch := range b.canon {
		if len(batch) > 0 {
			b.canonEmit(sh, batch)
			b.canon[sh] = nil
		}
	}
	for sh, batch := range b.rejected {
		if len(batch) > 0 {
			b.rejEmit(sh, batch)
			b.rejected[sh] = nil
		}
	}
	b.buffered = 0
	b.seen.reset()
	b.urls = b.urls[:0]
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
	for k, n := range b.schemes {
		out[0] = appendCount(out[0], SectionScheme, k, n)
	}
	for k, n := range b.kinds {
		out[0] = appendCount(out[0], SectionKind, k, n)
	}
	for k, n := range b.hosts {
		sh := shardOf(k, b.shards)
		out[sh] = appendCount(out[sh], SectionHost, k, n)
	}
	for sh, batch := range out {
		if len(batch) > 0 {
			b.countsEmit(sh, batch)
		}
	}
	b.status = [3]int{}
	clear(b.schemes)
	clear(b.hosts)
	clear(b.kinds)
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
