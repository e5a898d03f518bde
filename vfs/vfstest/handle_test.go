package vfstest_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/outfitter-go/vfsim/vfs/vfstest"
)

// recordTB is a [vfstest.TB] that records what a check reports.
type recordTB struct{ errs, fatals []string }

func (r *recordTB) Helper() {}
func (r *recordTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recordTB) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
}

// readerFile is an open file whose ReadAt is a bytes.Reader's: right on
// offsets within the text, but its error for a negative offset is no
// *fs.PathError.
type readerFile struct{ *bytes.Reader }

func (readerFile) Stat() (fs.FileInfo, error) { return nil, fs.ErrInvalid }
func (readerFile) Close() error               { return nil }

// CheckReadAt passes a MemFS file and reports what a handle gets wrong:
// other content, a negative offset refused without a *fs.PathError.
func TestCheckReadAt(t *testing.T) {
	t.Parallel()
	m := vfstest.MemWith(t, "/", vfstest.Tree{"f": vfstest.File("hello")})
	f, err := m.OpenFile("/f", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ok recordTB
	vfstest.CheckReadAt(&ok, f, "/f")
	if len(ok.errs)+len(ok.fatals) != 0 {
		t.Errorf("CheckReadAt of a MemFS file reported %q %q; want nothing", ok.errs, ok.fatals)
	}

	var bad recordTB
	vfstest.CheckReadAt(&bad, readerFile{bytes.NewReader([]byte("hxllo"))}, "/f")
	if len(bad.errs) != 3 || !strings.Contains(bad.errs[0], `want 3 "hel"`) || !strings.Contains(bad.errs[1], `want 3 "ell"`) || !strings.Contains(bad.errs[2], "ReadAt(-1)") {
		t.Errorf("CheckReadAt of a bytes.Reader holding hxllo reported %q; want the reads at 0 and 1 and the negative offset", bad.errs)
	}
}
