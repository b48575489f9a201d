//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// inSyscall reports whether a thread of process pid is blocked in system
// call nr, as /proc/PID/task/TID/syscall shows it ("nr arg1 ... arg6 sp
// pc" while the thread sleeps in a call), and match accepts its
// arguments. It reads the arguments' memory, for match, through read.
// An error means /proc could not tell (the process has ended, or this
// kernel does not show system calls).
func inSyscall(pid int, nr uintptr, match func(args []uint64, read func(addr uint64) string) bool) (bool, error) {
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return false, err
	}
	read := func(addr uint64) string { return cString(pid, addr) }
	for _, task := range tasks {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", task.Name(), "syscall"))
		if err != nil {
			continue // the thread has ended
		}
		f := strings.Fields(string(b))
		if len(f) < 7 || f[0] != strconv.FormatUint(uint64(nr), 10) {
			continue // "running", or another call
		}
		args := make([]uint64, 6)
		for i := range args {
			args[i], _ = strconv.ParseUint(strings.TrimPrefix(f[1+i], "0x"), 16, 64)
		}
		if match(args, read) {
			return true, nil
		}
	}
	return false, nil
}

// cString reads the NUL-terminated string at addr in process pid's memory
// ("" when it cannot be read).
func cString(pid int, addr uint64) string {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/mem")
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, int64(addr))
	if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
		return string(buf[:i])
	}
	return ""
}
