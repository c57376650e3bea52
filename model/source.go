package model

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"
)

// MaxSourceBytes is the largest model, query or sweep file that ReadSource
// reads: 8 MiB by default, far above any published UPPAAL model (the
// bundled agreement model is 12 KB), and low enough that parsing cannot
// take the machine's memory (YAML parsing needs about 75 bytes of heap per
// byte of input). The command line's --max-input sets it. It is atomic:
// a load that a limit made verify abandon may still be reading (until this
// limit stops it) when the next command in the same process sets it, as
// the command's tests do.
var MaxSourceBytes atomic.Int64

func init() { MaxSourceBytes.Store(DefaultMaxSourceBytes) }

// DefaultMaxSourceBytes is MaxSourceBytes's default.
const DefaultMaxSourceBytes = 8 << 20

// InputTooLargeError is the error of ReadSource for a file over the limit.
type InputTooLargeError struct {
	Path  string
	Limit int64
}

func (e *InputTooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than the input limit of %s (--max-input raises it)", e.Path, FormatBytes(e.Limit))
}

// ReadSource reads a model, query or sweep file, refusing one larger than
// MaxSourceBytes without reading more than that: a path that names an
// endless stream (a symlink to /dev/zero) or a huge file is an error, not
// a process that grows until the machine runs out of memory.
func ReadSource(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := MaxSourceBytes.Load()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, &InputTooLargeError{Path: path, Limit: limit}
	}
	src, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(src)) > limit {
		return nil, &InputTooLargeError{Path: path, Limit: limit}
	}
	return src, nil
}

// FormatBytes prints a byte count with a binary unit: "8 MiB", "1.5 GiB",
// "100 B".
func FormatBytes(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, i := float64(n), 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}
