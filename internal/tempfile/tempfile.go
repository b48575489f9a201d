// Package tempfile creates the temporary files that urlkit writes its
// outputs to before renaming them into place (get -o, get --warc).
package tempfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// Create creates a new file dir/prefix<random>suffix for writing with mode
// 0666, which the kernel reduces by the umask, as curl and cp create
// theirs (os.CreateTemp's 0600 would ignore the umask).
func Create(dir, prefix, suffix string) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 36)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no free temporary name in %s", dir)
}
