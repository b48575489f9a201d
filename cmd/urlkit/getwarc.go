package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/urlkit/urlkit/archive"
)

// warcName is the file `get --warc NAME` writes: NAME.warc.gz, or NAME
// itself when it already ends so.
func warcName(name string) string {
	if strings.HasSuffix(name, ".warc.gz") {
		return name
	}
	return name + ".warc.gz"
}

// openWARC starts the WARC file of get --warc, its warcinfo record saying
// what wrote it and by which conventions (WARC/1.1 section 6.2).
func openWARC(name string) (*archive.Writer, error) {
	version := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		version = bi.Main.Version
	}
	w, err := archive.Create(warcName(name), [][2]string{
		{"software", "urlkit " + version},
		{"format", "WARC File Format 1.1"},
		{"conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{"description", "urlkit get --warc: the exact bytes exchanged, by each scheme's convention (docs/archiving.md)"},
	})
	if err != nil {
		return nil, fmt.Errorf("--warc: %w", err)
	}
	return w, nil
}
