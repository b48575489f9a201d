package pipeline

import (
	"strings"
	"sync"
)

// When every worker of a run is this process (Prism in-process, or any
// runner with LOOPBACK workers: Config.InProcess), the batches need not go
// through files: a bundle hands each batch to memBatches under the name its
// file would have had, and the shard writer takes it from there, so the
// lines are written once, to their shard, instead of three times (batch
// file, its reading, shard). memBatches holds at most maxMemBatchBytes; a
// batch that does not fit is written to its file as on any runner, and
// the shard writer reads it from there: memory stays bounded whatever the
// link set. (A name the writer finds in neither place is an error, never a
// lost batch: the file is opened and not found.)
var memBatches = struct {
	sync.Mutex
	m     map[string][]byte
	bytes int
	kept  int // batches held since the process started
}{m: map[string][]byte{}}

// maxMemBatchBytes bounds the bytes of the batches held in memory.
var maxMemBatchBytes = 128 << 20

// keepBatch holds batch in memory under name, and reports whether it did
// (false: no room left, the caller writes the file).
func keepBatch(name string, batch []byte) bool {
	memBatches.Lock()
	defer memBatches.Unlock()
	if memBatches.bytes+cap(batch) > maxMemBatchBytes {
		return false
	}
	memBatches.m[name] = batch
	memBatches.bytes += cap(batch)
	memBatches.kept++
	return true
}

// heldBatch returns the batch held under name, if any.
func heldBatch(name string) ([]byte, bool) {
	memBatches.Lock()
	defer memBatches.Unlock()
	b, ok := memBatches.m[name]
	return b, ok
}

// dropBatches releases the batches held under the given names (a shard
// written) or, with dir, under every name in that directory (the run's
// clean-up).
func dropBatches(names []string, dir string) {
	memBatches.Lock()
	defer memBatches.Unlock()
	drop := func(name string) {
		if b, ok := memBatches.m[name]; ok {
			memBatches.bytes -= cap(b)
			delete(memBatches.m, name)
		}
	}
	for _, name := range names {
		drop(name)
	}
	if dir != "" {
		for name := range memBatches.m {
			if strings.HasPrefix(name, dir+"/") {
				drop(name)
			}
		}
	}
}
