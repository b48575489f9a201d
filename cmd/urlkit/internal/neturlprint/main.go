// Command neturlprint is the yardstick of the command line's speed: a
// small buffered program that reads URLs, one per line, parses each with
// Go's net/url and prints u.String() (or the error on standard error), as
// issue 13 describes it. clibench runs it beside urlkit on the same input.
package main

import (
	"bufio"
	"net/url"
	"os"
)

func main() {
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	errs := bufio.NewWriter(os.Stderr)
	defer errs.Flush()
	defer out.Flush()
	for {
		line, err := in.ReadString('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			line = line[:len(line)-1]
		}
		if line != "" {
			if u, perr := url.Parse(line); perr != nil {
				errs.WriteString(perr.Error())
				errs.WriteByte('\n')
			} else {
				out.WriteString(u.String())
				out.WriteByte('\n')
			}
		}
		if err != nil {
			return
		}
	}
}
