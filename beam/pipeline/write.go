package pipeline

import (
	"bufio"
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// marker is the element that makes every output file exist, even when the
// collection written to it is empty. No output line can equal it: lines
// hold no NUL byte (linkset.Field quotes control bytes, and a URL never
// holds one).
const marker = "\x00urlkit-beam"

func init() {
	register.Function1x1(toMarker)
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeFn{})
	register.Iter1[string]()
}

func toMarker([]byte) string { return marker }

// write writes col to one file, one element a line, after the header line
// when header is not empty; the file is written even when col is empty.
// Like textio.Write, it gathers the collection on one worker: fine for
// the summary and for link sets of up to some 10^8 distinct URLs; beyond
// that, shard the canonical output by its dedup key instead.
func write(s beam.Scope, filename, header string, col beam.PCollection) {
	s = s.Scope("write " + filename)
	filesystem.ValidateScheme(filename)
	all := beam.Flatten(s, col, beam.ParDo(s, toMarker, beam.Impulse(s)))
	beam.ParDo0(s, &writeFn{Filename: filename, Header: header}, beam.GroupByKey(s, beam.AddFixedKey(s, all)))
}

type writeFn struct {
	Filename string
	Header   string
}

func (w *writeFn) ProcessElement(ctx context.Context, _ int, lines func(*string) bool) (err error) {
	fs, err := filesystem.New(ctx, w.Filename)
	if err != nil {
		return fmt.Errorf("urlkit-beam: %s: %w", w.Filename, err)
	}
	defer fs.Close()
	f, err := fs.OpenWrite(ctx, w.Filename)
	if err != nil {
		return fmt.Errorf("urlkit-beam: creating %s: %w", w.Filename, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("urlkit-beam: writing %s: %w", w.Filename, cerr)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	if w.Header != "" {
		bw.WriteString(w.Header)
		bw.WriteByte('\n')
	}
	var line string
	for lines(&line) {
		if line == marker {
			continue
		}
		bw.WriteString(line)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("urlkit-beam: writing %s: %w", w.Filename, err)
	}
	return nil
}
