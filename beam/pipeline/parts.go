package pipeline

import (
	"context"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// readParts reads the lines of files in cfg.Parts steps, step i in the
// scope PartScope(i, cfg.Parts) reading the lines that start in its share
// of each file, and gathers their outputs.
func readParts(s beam.Scope, cfg Config, shards int, tmp string, files beam.PCollection) (canon, rejected, counts beam.PCollection) {
	var cs, rs, ns []beam.PCollection
	for i := range cfg.Parts {
		sp := s.Scope(PartScope(i, cfg.Parts))
		c, r, n := beam.ParDo3(sp, &readLinesFn{Lenient: cfg.Lenient, Shards: shards, Tmp: tmp, Part: i, Parts: cfg.Parts}, files)
		cs, rs, ns = append(cs, c), append(rs, r), append(ns, n)
	}
	return beam.Flatten(s, cs...), beam.Flatten(s, rs...), beam.Flatten(s, ns...)
}

// partRange is part i (from 0) of n of the byte range [0, size): the n
// parts are as even as whole bytes allow and cover the range, each byte
// in one part. A range holds the lines that start in it (readLinesFn), so
// each line is in one part. n below two is the whole range.
func partRange(size int64, i, n int) offsetrange.Restriction {
	if n < 2 {
		return offsetrange.Restriction{Start: 0, End: size}
	}
	return offsetrange.Restriction{Start: size * int64(i) / int64(n), End: size * int64(i+1) / int64(n)}
}

// logPart says, in the worker's log, how many lines part i of n read of
// file's range rest, and in which process: what shows that each line
// was read by one worker when the parts run in workers of their own.
func logPart(ctx context.Context, i, n int, file fileio.ReadableFile, rest offsetrange.Restriction, lines *int) {
	where := fmt.Sprintf("bytes %d to %d", rest.Start, rest.End)
	if gzipped(file) {
		where = "the whole gzip stream"
		if rest.Start == rest.End {
			where = "none of the gzip stream (another part reads it)"
		}
	}
	log.Infof(ctx, "urlkit-beam: part %d of %d: process %d read %d lines of %s, %s", i+1, n, os.Getpid(), *lines, file.Metadata.Path, where)
}
