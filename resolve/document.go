package resolve

import (
	"fmt"
	"io"
	"io/fs"

	"github.com/outfitter-go/vfsim/vfs"
)

// MaxDocumentBytes bounds every document read to resolve or plan a run
// (settings, profiles, prompt includes, SKILL.md, pi's JSON sources): a
// file over it is refused before more than MaxDocumentBytes+1 of its
// bytes are read, so a synced repository cannot have a run hold a file of
// any size in memory. YAML text is bounded again, at the same size, by
// the parser (see [YAMLSizeError]).
const MaxDocumentBytes = maxYAMLBytes

// DocumentSizeError reports a document over [MaxDocumentBytes]; nothing
// of it past the limit was read.
type DocumentSizeError struct {
	// File is the document.
	File string
	// Size is its size as the file system reports it, or, for a file
	// that grew while it was read, the bytes read (the limit plus one).
	Size int64
	// Limit is MaxDocumentBytes.
	Limit int
}

// Error names the file, its size and the limit.
func (e *DocumentSizeError) Error() string {
	return fmt.Sprintf("%s is too large: %d bytes, over the limit of %d", Quote(e.File), e.Size, e.Limit)
}

// ReadDocument reads the file name as [vfs.ReadFile] does, but never more
// than [MaxDocumentBytes]+1 bytes of it: a file whose size is over the
// limit is refused before it is read, and one that grows past it while it
// is read is refused with the bytes read, each with a
// [*DocumentSizeError].
func ReadDocument(fsys vfs.FS, name string) ([]byte, error) {
	if m, ok := fsys.(*vfs.MemFS); ok {
		// In memory the size checked is the size of the data read: one
		// walk of the name, no file information and no stat error made.
		data, size, err := m.ReadFileAtMost(name, MaxDocumentBytes)
		if err == nil && size > MaxDocumentBytes {
			return nil, &DocumentSizeError{File: name, Size: size, Limit: MaxDocumentBytes}
		}
		return data, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > MaxDocumentBytes {
		return nil, &DocumentSizeError{File: name, Size: fi.Size(), Limit: MaxDocumentBytes}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxDocumentBytes+1))
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok && pe.Path == "" {
			pe.Path = name
		}
		return nil, err
	}
	if len(data) > MaxDocumentBytes {
		return nil, &DocumentSizeError{File: name, Size: int64(len(data)), Limit: MaxDocumentBytes}
	}
	return data, nil
}

// yamlSize turns a document refused by [ReadDocument] into the YAML size
// error of its file, as the parser would give it; any other error is
// returned as it is.
func yamlSize(err error) error {
	if e, ok := err.(*DocumentSizeError); ok {
		return &YAMLSizeError{File: e.File, Size: int(e.Size), Limit: e.Limit}
	}
	return err
}
