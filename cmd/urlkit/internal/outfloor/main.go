// Command outfloor is the floor of a command's output format: it reads
// URLs, one per line, as the net/url yardstick does, and for each writes
// the next line of a file holding the command's output, computed
// beforehand, buffered as urlkit writes. It does no work on the URLs, so
// its CPU time is what reading the input and writing that many bytes cost
// (plus reading the precomputed lines from the page cache): no program
// that writes the same output can spend less. clibench runs it with -floor
// beside urlkit and the yardstick.
//
//	outfloor OUTPUT-FILE < urls.txt > /dev/null
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: outfloor OUTPUT-FILE < URLS")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "outfloor:", err)
		os.Exit(1)
	}
	defer f.Close()
	pre := bufio.NewReaderSize(f, 1<<20)
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	defer out.Flush()
	for {
		line, err := in.ReadSlice('\n')
		if len(line) > 0 {
			next, perr := pre.ReadSlice('\n')
			out.Write(next)
			if perr != nil && perr != io.EOF {
				fmt.Fprintln(os.Stderr, "outfloor:", perr)
				os.Exit(1)
			}
		}
		if err != nil {
			break
		}
	}
	io.Copy(out, pre) // what is left (none when every line gave one)
}
