// Command urlkit-beam runs urlkit's link-set job as an Apache Beam
// pipeline: it reads text files by glob, one URL per line (or free text
// with --extract), and writes the distinct canonical URLs, the rejected
// lines with offset and reason, the counts per status, scheme, host and
// rejection kind, and a summary table.
//
// Locally, on the Prism runner (in-process, nothing to start):
//
//	urlkit-beam --runner=prism --input='corpus/*.txt' --output=/tmp/links
//
// On Flink, Spark or Dataflow, by Beam's own flags, for example:
//
//	urlkit-beam --runner=flink --endpoint=localhost:8099 --environment_type=LOOPBACK --input=... --output=...
//	urlkit-beam --runner=spark --endpoint=localhost:8099 --input=... --output=...
//	urlkit-beam --runner=dataflow --project=P --region=R --staging_location=gs://B/staging \
//	    --input='gs://B/links/*.txt' --output=gs://B/out/links
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/urlkit/urlkit/beam/pipeline"
)

var (
	input    = flag.String("input", "", "file glob to read (required)")
	output   = flag.String("output", "", "prefix of the output files (required): PREFIX-canonical.txt, PREFIX-rejected.tsv, PREFIX-counts.tsv, PREFIX-summary.txt")
	extract  = flag.Bool("extract", false, "read free text and take the URLs in it (RFC 1738 appendix: <URL:...> wrappers) instead of one URL per line")
	lenient  = flag.Bool("lenient", false, "repair what urlkit's lenient parser can repair instead of rejecting it")
	topHosts = flag.Int("top_hosts", 20, "how many hosts the summary lists")
)

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: urlkit-beam --runner=prism --input=GLOB --output=PREFIX [--extract] [--lenient]\n\nFlags (urlkit's and Beam's):\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	beam.Init()
	if *input == "" || *output == "" {
		fmt.Fprintln(os.Stderr, "urlkit-beam: --input and --output are required")
		flag.Usage()
		os.Exit(2)
	}
	p, s := beam.NewPipelineWithRoot()
	pipeline.Build(s, pipeline.Config{Input: *input, Output: *output, Extract: *extract, Lenient: *lenient, TopHosts: *topHosts})
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Fprintf(os.Stderr, "urlkit-beam: %v\n", err)
		os.Exit(1)
	}
}
