// Package aferofs adapts between the [vfs] interfaces and
// github.com/spf13/afero, in both directions.
//
// # From vfs to afero
//
// [FromVFS] presents any [vfs.ReadWriteFS], such as a [vfs.MemFS], as an
// afero.Fs for code written against afero. The result is an
// afero.Symlinker whose links are the FS's real links. Errors are the FS's
// own *fs.PathError and *os.LinkError values.
//
// # From afero to vfs
//
// [ToVFS] presents an afero.Fs as a [vfs.FS] whose concrete type has
// every capability method. What afero cannot do fails with an error
// wrapping errors.ErrUnsupported instead of being imitated: afero's
// MemMapFs has no links, and its LstatIfPossible is a plain Stat that
// answers "lstat not used", so Lstat, ReadLink and Symlink on it are
// unsupported. The semantics otherwise are afero's: MemMapFs, for one,
// creates missing parents and lets Remove drop a non-empty directory (see
// the vfs specification's list of peer bugs), so wrap it only where those
// differences do not matter.
//
// # Concurrency
//
// The adapters hold no state of their own; they are as safe for concurrent
// use as the file system they wrap.
package aferofs
