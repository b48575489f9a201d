// Command gen writes link-set input for beam/scale.sh: n lines made from
// the lines of the text files given (the ada-url datasets), repeated as
// they are or, with -distinct, each with a path segment of its own (see
// package distinct), in files of -per lines named DIR/partNNNNNN, or to
// standard output without -dir.
//
//	gen -n 10000000 -distinct -dir /tmp/in ../shared/corpora/ada-url-datasets/*.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urlkit/urlkit/beam/internal/distinct"
)

func main() {
	n := flag.Uint64("n", 1000000, "how many lines to write")
	dist := flag.Bool("distinct", false, "make every line with an authority a different URL")
	dir := flag.String("dir", "", "directory to write the files to (created); standard output when empty")
	per := flag.Uint64("per", 100000, "lines per file")
	flag.Parse()
	if err := run(*n, *dist, *dir, *per, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(n uint64, dist bool, dir string, per uint64, files []string) error {
	var base []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		base = append(base, strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")...)
	}
	if len(base) == 0 {
		return fmt.Errorf("no input lines (give the corpus files as arguments)")
	}
	if per == 0 {
		return fmt.Errorf("-per must be at least 1")
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var (
		w    = bufio.NewWriterSize(os.Stdout, 1<<20)
		f    *os.File
		line []byte
	)
	closeFile := func() error {
		if f == nil {
			return nil
		}
		if err := w.Flush(); err != nil {
			return err
		}
		err := f.Close()
		f = nil
		return err
	}
	for i := uint64(0); i < n; i++ {
		if dir != "" && i%per == 0 {
			if err := closeFile(); err != nil {
				return err
			}
			var err error
			f, err = os.Create(filepath.Join(dir, fmt.Sprintf("part%06d", i/per)))
			if err != nil {
				return err
			}
			w.Reset(f)
		}
		b := base[i%uint64(len(base))]
		if dist {
			line = distinct.Line(line[:0], b, i)
		} else {
			line = append(line[:0], b...)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	if dir != "" {
		return closeFile()
	}
	if err := w.Flush(); err != nil && err != io.ErrShortWrite {
		return err
	}
	return nil
}
