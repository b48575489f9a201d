package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit/archive"
	"github.com/urlkit/urlkit/internal/tempfile"
)

func init() {
	register(&command{
		name:    "index",
		summary: "write the CDXJ index of WARC files (the sorted form pywb and warcio.js read)",
		usage:   "[flags] WARC_OR_DIR...",
		flags: func(fs *flag.FlagSet) {
			fs.String("o", "", "write the index to `FILE` (complete or absent) instead of standard output")
		},
		notes: "Records that cannot be read are named on standard error (file, offset, what\n" +
			"was wrong) and left out; the others are indexed, and the exit status is 1.\n",
		run: runIndex,
	})
}

func runIndex(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, "urlkit index: name the WARC files (or directories of them) to index")
		return exitUsage
	}
	names, err := archive.WARCFiles(args)
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("no WARC files (.warc, .warc.gz) in %s", strings.Join(args, ", "))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "urlkit index: %v\n", err)
		return exitInvalid
	}
	out := fs.Lookup("o").Value.String()
	srt := &archive.Sorter{}
	if out != "" {
		srt.Dir = filepath.Dir(out)
	}
	defer srt.Close()
	status := exitOK
	bad := func(err error) {
		fmt.Fprintf(e.stderr, "urlkit index: %v\n", err)
		status = exitInvalid
	}
	var addErr error
	for _, n := range names {
		f, err := archive.Open(n)
		if err != nil {
			bad(err)
			continue
		}
		archive.IndexFile(f, filepath.Base(n), func(en archive.Entry) {
			if addErr == nil {
				addErr = srt.Add(en.AppendLine(nil))
			}
		}, bad)
		f.Close()
		if addErr != nil {
			fmt.Fprintf(e.stderr, "urlkit index: %v\n", addErr)
			return exitInvalid
		}
	}
	if out == "" {
		if _, err := srt.WriteTo(e.stdout); err != nil {
			fmt.Fprintf(e.stderr, "urlkit index: %v\n", err)
			return exitInvalid
		}
		return status
	}
	if err := writeIndexFile(out, srt); err != nil {
		fmt.Fprintf(e.stderr, "urlkit index: %v\n", err)
		return exitInvalid
	}
	return status
}

// writeIndexFile writes the sorted index to name through a temporary file
// in the same directory (tempfile.Create), synced and renamed: the file
// is complete or absent.
func writeIndexFile(name string, srt *archive.Sorter) error {
	dir, base := filepath.Split(name)
	if dir == "" {
		dir = "."
	}
	f, err := tempfile.Create(dir, "."+base+".urlkit-", ".part")
	if err != nil {
		return err
	}
	_, err = srt.WriteTo(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
