package pipeline

import (
	"strconv"

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
// they hold maxBatchBytes (the URLs seen are then forgotten: a URL seen
// again is sent again, and the shard writer keeps it once), and the host
// counts when they hold maxBundleKeys hosts.
type bundle struct {
	opt    linkset.Options
	shards int

	// seen finds the canonical URLs already in a batch: by the URL's
	// hash, the offset of the URL in its shard's batch, so that a hash
	// shared by two URLs is told apart by comparing them.
	seen     map[uint64]int
	canon    [][]byte // per shard: canonical URLs, one a line
	rejected [][]byte // per shard: linkset.RejectedLine, one a line
	buffered int      // bytes in canon and rejected

	status                [3]int // by linkset.Status
	schemes, hosts, kinds map[string]int
	counted               bool // any count since the last flush

	canonEmit, rejEmit, countsEmit emitFn
}

// emitFn emits one batch: a shard number and its lines.
type emitFn = func(int, []byte)

const (
	// maxBatchBytes bounds the bytes a bundle holds in its batches.
	maxBatchBytes = 8 << 20
	// maxBundleKeys bounds the hosts a bundle counts before emitting them.
	maxBundleKeys = 1 << 17
)

// start resets b for a new bundle writing to the given emitters.
func (b *bundle) start(opt linkset.Options, shards int, canon, rejected, counts emitFn) {
	b.opt, b.shards = opt, shards
	b.canonEmit, b.rejEmit, b.countsEmit = canon, rejected, counts
	if b.seen == nil {
		b.seen = make(map[uint64]int, maxBatchBytes/64)
		b.schemes = make(map[string]int)
		b.hosts = make(map[string]int)
		b.kinds = make(map[string]int)
	}
	if len(b.canon) != shards {
		b.canon = make([][]byte, shards)
		b.rejected = make([][]byte, shards)
	}
	clear(b.seen)
}

// line reads one input line by the command line's rule and records it.
func (b *bundle) line(s string) {
	s, ok := linkset.Line(s)
	if !ok {
		return
	}
	b.record(linkset.Classify(s, b.opt))
}

// record adds one classified line.
func (b *bundle) record(r linkset.Record) {
	b.status[r.Status]++
	b.counted = true
	if r.Status == linkset.Rejected {
		b.kinds[r.Kind]++
		sh := shardOf(r.Input, b.shards)
		n := len(b.rejected[sh])
		b.rejected[sh] = append(append(b.rejected[sh], linkset.RejectedLine(r)...), '\n')
		b.buffered += len(b.rejected[sh]) - n
	} else {
		b.schemes[r.Scheme]++
		if r.Host != "" {
			b.hosts[r.Host]++
		}
		b.addCanonical(r.Canonical)
	}
	if b.buffered >= maxBatchBytes {
		b.flushBatches()
	}
	if len(b.hosts) >= maxBundleKeys {
		b.flushCounts()
	}
}

// addCanonical adds a canonical URL to its shard's batch unless the batch
// holds it already.
func (b *bundle) addCanonical(u string) {
	h := xxhash.Sum64String(u)
	sh := int(h % uint64(b.shards))
	batch := b.canon[sh]
	if off, ok := b.seen[h]; ok && off+len(u) < len(batch) && string(batch[off:off+len(u)]) == u && batch[off+len(u)] == '\n' {
		return
	} else if !ok {
		b.seen[h] = len(batch)
	}
	b.canon[sh] = append(append(batch, u...), '\n')
	b.buffered += len(u) + 1
}

// shardOf returns the output shard of a line: a hash of its text, the same
// on every worker, so that one canonical URL always reaches one shard.
func shardOf(s string, shards int) int {
	return int(xxhash.Sum64String(s) % uint64(shards))
}

// finish emits everything b holds.
func (b *bundle) finish() {
	b.flushBatches()
	b.flushCounts()
	b.canonEmit, b.rejEmit, b.countsEmit = nil, nil, nil
}

// flushBatches emits the non-empty batches; a batch emitted is never
// written to again (the runner may still hold it).
func (b *bundle) flushBatches() {
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
	clear(b.seen)
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
