// Command memfloor measures what memory costs the link-set pipeline's
// process on this machine when it touches it first: the floor under the
// pipeline's cost a line at 10^8 lines (docs/scale.md). On a virtual
// machine whose freed memory goes back to the host (virtio-balloon free
// page reporting, as on this project's Firecracker machine), a page the
// guest has not used lately costs a fault in the host on its first touch,
// which the guest counts as CPU time of whatever touched it.
//
// It reports the CPU time (user+system, getrusage) a byte of each slice
// of -slice bytes, for -total bytes, in three ways:
//
//	touch  anonymous memory (mmap), a byte written on each 4 KiB page;
//	write  new files in the directory -dir (files of 2 MiB written 64 KiB
//	       at a time, the pipeline's batch files), removed at the end;
//	reuse  as write, but each file written after an input file of the
//	       same size (written first, flushed and read) is read and its
//	       pages dropped (POSIX_FADV_DONTNEED), as the pipeline reads its
//	       input: the new file takes the pages the input leaves. The
//	       input file is then removed, so that the disk holds -total
//	       bytes at most, as for write.
//
//	go run ./internal/memfloor                  # from beam/: 8 GiB each, in 1 GiB slices
//	go run ./internal/memfloor -total 4GiB -modes write,reuse
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

const (
	fileSize  = 2 << 20
	writeSize = 64 << 10
)

func main() {
	total := flag.String("total", "8GiB", "bytes of each measurement (a number, or with KiB, MiB or GiB)")
	slice := flag.String("slice", "1GiB", "bytes of each reported slice")
	dir := flag.String("dir", os.TempDir(), "directory for the files of write and reuse (it needs -total bytes free)")
	modes := flag.String("modes", "touch,write,reuse", "which measurements, in order")
	flag.Parse()
	if err := run(os.Stdout, *total, *slice, *dir, strings.Split(*modes, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "memfloor:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, totalS, sliceS, dir string, modes []string) error {
	total, err := parseSize(totalS)
	if err != nil {
		return fmt.Errorf("-total: %w", err)
	}
	slice, err := parseSize(sliceS)
	if err != nil {
		return fmt.Errorf("-slice: %w", err)
	}
	if slice < fileSize || slice%fileSize != 0 || total < slice {
		return fmt.Errorf("-slice must be a multiple of 2 MiB, and -total at least -slice (got %d and %d bytes)", slice, total)
	}
	for _, m := range modes {
		var costs []float64
		switch m {
		case "touch":
			costs, err = touch(total, slice)
		case "write", "reuse":
			costs, err = write(dir, total, slice, m == "reuse")
		default:
			return fmt.Errorf("-modes: %q is not touch, write or reuse", m)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", m, err)
		}
		fmt.Fprintf(out, "%-5s", m)
		for _, c := range costs {
			fmt.Fprintf(out, " %5.2f", c)
		}
		fmt.Fprintf(out, "  ns of CPU a byte, by slice of %s\n", sliceS)
	}
	return nil
}

// parseSize reads 123, 4KiB, 5MiB or 6GiB.
func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suffix, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(s, suffix) {
			s, mult = strings.TrimSuffix(s, suffix), m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size in bytes (a positive number, or with KiB, MiB or GiB)", s)
	}
	return n * mult, nil
}

// cpu is the process's CPU time so far, in ns.
func cpu() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

func touch(total, slice int64) ([]float64, error) {
	var costs []float64
	var maps [][]byte
	defer func() {
		for _, m := range maps {
			unix.Munmap(m)
		}
	}()
	for done := int64(0); done < total; done += slice {
		m, err := unix.Mmap(-1, 0, int(slice), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
		if err != nil {
			return nil, err
		}
		maps = append(maps, m)
		c := cpu()
		for i := 0; i < len(m); i += 4096 {
			m[i] = 1
		}
		costs = append(costs, float64(cpu()-c)/float64(slice))
	}
	return costs, nil
}

func write(dir string, total, slice int64, reuse bool) ([]float64, error) {
	work, err := os.MkdirTemp(dir, "memfloor-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	buf := make([]byte, fileSize)
	for i := range buf {
		buf[i] = 'a' + byte(i%26)
		if i%64 == 63 {
			buf[i] = '\n'
		}
	}
	files := int(total / fileSize)
	if reuse {
		for i := range files {
			if err := writeFile(filepath.Join(work, "in-"+strconv.Itoa(i)), buf, true); err != nil {
				return nil, err
			}
		}
		for i := range files {
			if _, err := os.ReadFile(filepath.Join(work, "in-"+strconv.Itoa(i))); err != nil {
				return nil, err
			}
		}
	}
	var costs []float64
	perSlice := int(slice / fileSize)
	c := cpu()
	rbuf := make([]byte, fileSize)
	for i := range files {
		if reuse {
			if err := readDrop(filepath.Join(work, "in-"+strconv.Itoa(i)), rbuf); err != nil {
				return nil, err
			}
		}
		if err := writeFile(filepath.Join(work, "out-"+strconv.Itoa(i)), buf, false); err != nil {
			return nil, err
		}
		if (i+1)%perSlice == 0 {
			now := cpu()
			costs = append(costs, float64(now-c)/float64(slice))
			c = now
		}
	}
	return costs, nil
}

// writeFile writes a new file 64 KiB at a time, flushed to disk when sync
// (an input file: the kernel drops clean pages only).
func writeFile(name string, b []byte, sync bool) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	for len(b) > 0 {
		n := min(len(b), writeSize)
		if _, err := f.Write(b[:n]); err != nil {
			f.Close()
			return err
		}
		b = b[n:]
	}
	if sync {
		if err := f.Sync(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// readDrop reads a file, drops its pages from the page cache and removes
// it.
func readDrop(name string, buf []byte) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.ReadFull(f, buf); err != nil {
		return err
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		return err
	}
	return os.Remove(name)
}
