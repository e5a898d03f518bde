package composite

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// FS is what materialization needs from a file system. Symbolic links are
// created through [vfs.SymlinkFS] when the FS has it; without it a symlink
// state path is copied instead, with a warning. Lstat is used through
// [vfs.LstatFS] when present; an FS without links and without Lstat is
// read with Stat, which is then the same question.
type FS interface {
	vfs.StatFS
	vfs.ReadFileFS
	vfs.ReadDirFS
	vfs.WriteFileFS
	vfs.MkdirFS
	vfs.MkdirAllFS
	vfs.RemoveFS
}

// EscapeError reports a generated file or state path whose output would
// leave the composite root.
type EscapeError struct {
	// Path is the file's output path or the state path's relative path.
	Path string
	// Root is the composite root.
	Root string
	// StatePath reports a state path (else a generated file).
	StatePath bool
}

// Error returns upstream's message.
func (e *EscapeError) Error() string {
	if e.StatePath {
		return fmt.Sprintf("State path '%s' must stay under compositeProfile root '%s'.", e.Path, e.Root)
	}
	return fmt.Sprintf("CompositeProfile file output path '%s' must stay under compositeProfile root '%s'.", e.Path, e.Root)
}

// StateError reports a state path that cannot be materialized as declared.
type StateError struct {
	// Path is the state path's relative path or the durable source.
	Path string
	// Msg is upstream's message.
	Msg string
}

// Error returns the message.
func (e *StateError) Error() string { return e.Msg }

// WriteError reports a file system failure while materializing a
// composite. Step names what was being done ("write file", "create
// parent", "remove existing", "create source", "symlink", "copy source",
// "mkdir").
type WriteError struct {
	// Step names the operation that failed.
	Step string
	// Path is the path operated on.
	Path string
	// Err is the file system error.
	Err error
}

// Error returns the step, the path and the cause.
func (e *WriteError) Error() string { return fmt.Sprintf("composite %s %s: %v", e.Step, e.Path, e.Err) }

// Unwrap returns the file system error.
func (e *WriteError) Unwrap() error { return e.Err }

// WriteOptions tunes [Write].
type WriteOptions struct {
	// FilesOnly skips state path materialization (upstream's
	// materializeStatePaths: false).
	FilesOnly bool
	// Cwd is the directory a relative source path is created against; the
	// link keeps the relative target verbatim. Empty means "/".
	Cwd string
	// Platform is the operating system the materialization acts as; ""
	// means Linux. [vfs.PlatformWin32] reproduces upstream's SafeSymlink
	// on Windows without Developer Mode, where creating a symbolic link
	// is refused with EPERM: a directory state path becomes a junction (a
	// link to the source's absolute path, which needs no privilege), and
	// where the junction is refused too (EPERM or EACCES from the file
	// system), or for a file, the source is copied, with upstream's
	// warning that writes to the copy will not persist back. Other
	// platforms create links as Linux does.
	Platform vfs.Platform
}

// Write materializes c on fsys: generated files in order, then every
// state path except unknown in declaration order (§1.4). It returns the
// warnings of copy fallbacks. A failure leaves what was written so far.
func Write(fsys FS, c *Composite, opts WriteOptions) ([]string, error) {
	warnings, _, err := write(fsys, c, opts)
	return warnings, err
}

// write is [Write] that also returns the outputs it made of c's state
// paths, index for index ("" for a path it did not materialize: an
// unknown one, or every one under FilesOnly).
func write(fsys FS, c *Composite, opts WriteOptions) (warnings, stateOuts []string, err error) {
	root := path.Clean(c.Root)
	if err := vfs.MkdirAll(fsys, root, 0o700); err != nil {
		return nil, nil, &WriteError{Step: "mkdir", Path: root, Err: err}
	}
	made := madeDirs{root: true}
	// The outputs of the files, then of the state paths, made at once.
	outs := resolveAllAgainst(root, len(c.Files)+len(c.StatePaths), func(i int) (string, bool) {
		if i < len(c.Files) {
			return c.Files[i].RelativePath, true
		}
		sp := c.StatePaths[i-len(c.Files)]
		return sp.Name(), !opts.FilesOnly && !sp.IsUnknown()
	})
	for i, f := range c.Files {
		out := outs[i]
		if rel := relTo(root, out); strings.HasPrefix(rel, "..") || path.IsAbs(rel) {
			return nil, nil, &EscapeError{Path: out, Root: root}
		}
		if parent := parentOf(out); !made[parent] {
			if err := made.mkdirAll(fsys, parent); err != nil {
				return nil, nil, &WriteError{Step: "create parent", Path: parent, Err: err}
			}
		}
		if err := vfs.WriteFileString(fsys, out, f.Content, 0o644); err != nil {
			return nil, nil, &WriteError{Step: "write file", Path: out, Err: err}
		}
	}
	stateOuts = outs[len(c.Files):]
	if opts.FilesOnly {
		return nil, stateOuts, nil
	}
	for i, sp := range c.StatePaths {
		if sp.IsUnknown() {
			continue
		}
		w, err := materializeStatePath(fsys, root, sp, outs[len(c.Files)+i], opts.Cwd, opts.Platform, made)
		warnings = append(warnings, w...)
		if err != nil {
			return warnings, stateOuts, err
		}
	}
	return warnings, stateOuts, nil
}

// StateOutput returns the absolute output of a state path under root, or
// an [*EscapeError] when it would leave the root (§1.5).
func StateOutput(root string, sp StatePath) (string, error) {
	return stateOutput(path.Clean(root), sp)
}

// stateOutput is StateOutput of a clean root.
func stateOutput(root string, sp StatePath) (string, error) {
	return checkStateOutput(root, sp, resolveAgainst(root, sp.Name()))
}

// checkStateOutput returns out, the output of sp under the clean root, or
// an [*EscapeError] when it leaves the root.
func checkStateOutput(root string, sp StatePath, out string) (string, error) {
	rel := relTo(root, out)
	if rel == ".." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return "", &EscapeError{Path: sp.RelativePath, Root: root, StatePath: true}
	}
	return out, nil
}

// relTo returns p relative to root (both clean and absolute): "." for
// root itself, the path below it for p inside it and ".." for any p
// outside it (its callers ask only whether p leaves root).
func relTo(root, p string) string {
	if p == root {
		return "."
	}
	if root == "/" {
		return p[1:]
	}
	if len(p) > len(root) && p[len(root)] == '/' && p[:len(root)] == root {
		return p[len(root)+1:]
	}
	return ".."
}

// madeDirs remembers the directories one [Write] made or found, so that
// the parents many entries share are created once. Write only adds to the
// tree, except for removing a state path's non-directory output (a link
// to a directory may have been walked through), after which it forgets
// all it remembered: that happens only where links cannot be made.
type madeDirs map[string]bool

// mkdirAll is vfs.MkdirAll, remembered: dir and its ancestors now exist.
func (m madeDirs) mkdirAll(fsys FS, dir string) error {
	if m[dir] {
		return nil
	}
	if err := vfs.MkdirAll(fsys, dir, 0o755); err != nil {
		return err
	}
	m[dir] = true
	return nil
}

// materializeStatePath materializes sp, whose output under the clean root
// is out (resolveAgainst(root, sp.Name())).
func materializeStatePath(fsys FS, root string, sp StatePath, out, cwd string, platform vfs.Platform, made madeDirs) ([]string, error) {
	out, err := checkStateOutput(root, sp, out)
	if err != nil {
		return nil, err
	}
	if sp.Strategy != StrategySymlink {
		dir := parentOf(out)
		if sp.Directory {
			dir = out
		}
		if err := made.mkdirAll(fsys, dir); err != nil {
			return nil, &WriteError{Step: "mkdir", Path: dir, Err: err}
		}
		return nil, nil
	}
	if sp.SourcePath == "" {
		return nil, &StateError{Path: sp.RelativePath, Msg: fmt.Sprintf("State path '%s' uses symlink without a source path.", sp.RelativePath)}
	}
	if err := made.mkdirAll(fsys, parentOf(out)); err != nil {
		return nil, &WriteError{Step: "create parent", Path: parentOf(out), Err: err}
	}
	if cwd == "" {
		cwd = "/"
	}
	src := resolveAgainst(cwd, sp.SourcePath)
	if platform == vfs.PlatformWin32 {
		return materializeWindows(fsys, sp, src, out, made)
	}
	// The link first: on a fresh root there is nothing to replace, and a
	// link's target need not exist yet. Its source is ensured right after.
	err = vfs.Symlink(fsys, sp.SourcePath, out)
	if errors.Is(err, fs.ErrExist) {
		if err := removeExisting(fsys, out, made); err != nil {
			return nil, err
		}
		err = vfs.Symlink(fsys, sp.SourcePath, out)
	}
	if err == nil {
		w, err := ensureSource(fsys, src, sp.Directory, sp.Folder, sp.Seed, made)
		return nonEmpty(w), err
	}
	if !errors.Is(err, errors.ErrUnsupported) {
		return nil, &WriteError{Step: "symlink", Path: out, Err: err}
	}
	// No links on this backend: copy the source in its place.
	if err := removeExisting(fsys, out, made); err != nil {
		return nil, err
	}
	w, err := ensureSource(fsys, src, sp.Directory, sp.Folder, sp.Seed, made)
	if err != nil {
		return nonEmpty(w), err
	}
	return copyFallback(fsys, sp, src, out, w)
}

// copyFallback copies the source src of sp to its output out, in place
// of a link, and returns the warnings: w (the source's own), then
// upstream's warning that writes will not persist back.
func copyFallback(fsys FS, sp StatePath, src, out, w string) ([]string, error) {
	if err := copyTree(fsys, src, out); err != nil {
		return nonEmpty(w), &WriteError{Step: "copy source", Path: out, Err: err}
	}
	return append(nonEmpty(w), fmt.Sprintf("State path '%s' could not be symlinked (symlinks are unavailable on this platform); copied '%s' instead, so writes to it will not persist back.", sp.RelativePath, sp.SourcePath)), nil
}

// materializeWindows is upstream's materializeSymlink with SafeSymlink's
// Windows fallback, on a Windows that refuses symbolic links: the output
// is cleared and the source ensured, as upstream does before it links;
// the symbolic link is refused (EPERM), so a directory gets a junction
// to the source's absolute path, and a file, or a directory whose
// junction the file system refuses with EPERM or EACCES, gets a copy.
func materializeWindows(fsys FS, sp StatePath, src, out string, made madeDirs) ([]string, error) {
	if err := removeExisting(fsys, out, made); err != nil {
		return nil, err
	}
	w, err := ensureSource(fsys, src, sp.Directory, sp.Folder, sp.Seed, made)
	if err != nil {
		return nonEmpty(w), err
	}
	if sp.Directory {
		err := vfs.Symlink(fsys, src, out)
		if err == nil {
			return nonEmpty(w), nil
		}
		if !errors.Is(err, fs.ErrPermission) && !errors.Is(err, errors.ErrUnsupported) {
			return nonEmpty(w), &WriteError{Step: "junction", Path: out, Err: err}
		}
	}
	return copyFallback(fsys, sp, src, out, w)
}

// nonEmpty returns the warning w as a list: none when it is empty.
func nonEmpty(w string) []string {
	if w == "" {
		return nil
	}
	return []string{w}
}

// removeExisting removes what is at a state path's output, unless it is a
// directory (an error, as upstream's unlink gives).
func removeExisting(fsys FS, out string, made madeDirs) error {
	fi, err := lstat(fsys, out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &WriteError{Step: "remove existing", Path: out, Err: err}
	}
	if fi.IsDir() {
		return &WriteError{Step: "remove existing", Path: out, Err: &fs.PathError{Op: "unlink", Path: out, Err: vfs.ErrIsDir}}
	}
	if err := vfs.Remove(fsys, out); err != nil {
		return &WriteError{Step: "remove existing", Path: out, Err: err}
	}
	clear(made)
	return nil
}

// lstat uses Lstat when the FS has it; an FS without Lstat and without
// symlinks cannot hold links, so Stat answers the same question.
func lstat(fsys FS, name string) (fs.FileInfo, error) {
	fi, err := vfs.Lstat(fsys, name)
	if errors.Is(err, errors.ErrUnsupported) && !canLink(fsys, name) {
		return fsys.Stat(name)
	}
	return fi, err
}

// canLink reports whether fsys may hold symbolic links: it has Symlink and
// the call is not known to be unsupported.
func canLink(fsys FS, name string) bool {
	_, ok := fsys.(vfs.SymlinkFS)
	if !ok {
		return false
	}
	_, err := vfs.ReadLink(fsys, name)
	return !errors.Is(err, errors.ErrUnsupported)
}

// stateInput is sp as a generated file reads its source: the checkout's
// copy (sp.Seed) while the state copy of a synced profile's source does
// not exist yet, so that the first run sees what the catalog ships.
func stateInput(fsys vfs.FS, sp StatePath) StatePath {
	if sp.Seed != "" {
		if _, err := vfs.Lstat(fsys, sp.SourcePath); errors.Is(err, fs.ErrNotExist) {
			sp.SourcePath = sp.Seed
		}
	}
	return sp
}

// seedSource makes the missing state copy source of a synced profile's
// source as a copy of seed, the checkout's copy, when seed exists: files
// with their modes, directories whole, links followed only within seed
// (it was checked to stay in its checkout when the run was planned). A
// source that exists is left as it is: it holds what the agent wrote.
func seedSource(fsys FS, source, seed string, made madeDirs) error {
	if _, err := vfs.Lstat(fsys, source); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return &WriteError{Step: "create source", Path: source, Err: err}
	}
	if _, err := vfs.Stat(fsys, seed); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return &WriteError{Step: "create source", Path: seed, Err: err}
	}
	if err := made.mkdirAllSynced(fsys, path.Dir(source)); err != nil {
		return &WriteError{Step: "create source", Path: path.Dir(source), Err: err}
	}
	// The state copy is a durable source: copied as persist copies (Merge,
	// on a destination that does not exist yet), so that each file and
	// directory made survives a power cut, old (absent) or new, whole.
	if err := vfs.Copy(fsys, source, fsys, seed, vfs.CopyOptions{Links: vfs.LinksFollow, Within: seed, Merge: true}); err != nil {
		return &WriteError{Step: "create source", Path: source, Err: err}
	}
	return nil
}

// createsInside checks, before a missing profile-owned source is
// created, that what would be created lies in its profile folder, links
// resolved ([resolve.Confine]): a directory on the way that was swapped
// for a link out of the folder, or a dangling link out at the source
// itself, would have the creation land where it leads (~/.ssh, say). A
// source that exists is not checked: nothing is created.
func createsInside(fsys FS, source, folder string) error {
	if _, err := vfs.Stat(fsys, source); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, vfs.ErrNotDir) {
		return &WriteError{Step: "create source", Path: source, Err: err}
	}
	err := resolve.Confine(fsys, source, folder)
	if e, ok := errors.AsType[*resolve.EscapeError](err); ok {
		return &StateError{Path: source, Msg: fmt.Sprintf(
			"State source path '%s' is not created: the symbolic link '%s' on its way leads out of profile folder '%s' (to '%s'), where Outfitter never writes.",
			resolve.Quote(source), resolve.Quote(e.Link), resolve.Quote(folder), resolve.Quote(e.Resolved))}
	}
	if err != nil {
		return &WriteError{Step: "create source", Path: source, Err: err}
	}
	return nil
}

// initialContent is the content a missing source file is created with.
func initialContent(name string) (string, bool) {
	switch path.Base(name) {
	case "mcp.json", "trust.json":
		return "{}\n", true
	case "models.json":
		return "{\"providers\":{}}\n", true
	}
	return "", false
}

// EnsureSource creates the missing durable source of a state path (§1.6):
// a directory, or a file with its default content; a blank mcp.json,
// models.json or trust.json is reset to its JSON default. A source of the
// wrong kind is an [*StateError].
//
// The blank-source reset writes through a link only when the link's real
// path stays in the profile folder the source was found in
// (sp.Folder): a blank source that leads out of it is left as it is, and
// the returned warning says so. Native and cache sources (no folder) are
// reset as upstream resets them, through any link.
//
// A blank source in use by another live session (its agent holds the
// shared in-use lock of the file, [vfs.SharedLockFS], which sim takes
// while the agent runs) is left as it is too, with a warning: the agent
// may be between its truncation of the file and its write, and a reset
// would lose what it writes. Upstream resets it. On a file system
// without shared locks the reset is upstream's.
func EnsureSource(fsys FS, sp StatePath) (warning string, err error) {
	return ensureSource(fsys, sp.SourcePath, sp.Directory, sp.Folder, sp.Seed, madeDirs{})
}

func ensureSource(fsys FS, source string, directory bool, folder, seed string, made madeDirs) (string, error) {
	if folder != "" {
		if err := createsInside(fsys, source, folder); err != nil {
			return "", err
		}
	}
	if seed != "" {
		if err := seedSource(fsys, source, seed, made); err != nil {
			return "", err
		}
	}
	var mkErr error
	if directory {
		// Usually missing or a directory: MkdirAll answers both at once;
		// Stat explains a failure.
		if mkErr = made.mkdirAllSynced(fsys, source); mkErr == nil {
			return "", nil
		}
	}
	mode, err := vfs.Probe(fsys, source)
	if errors.Is(err, fs.ErrNotExist) {
		if directory {
			return "", &WriteError{Step: "create source", Path: source, Err: mkErr}
		}
		if err := made.mkdirAllSynced(fsys, path.Dir(source)); err != nil {
			return "", &WriteError{Step: "create source", Path: path.Dir(source), Err: err}
		}
		content, _ := initialContent(source)
		link, err := isLink(fsys, source)
		if err != nil {
			return "", &WriteError{Step: "create source", Path: source, Err: err}
		}
		write := func() error { return writeDefault(fsys, source, []byte(content), 0o644, missing) }
		if link {
			// A dangling link: upstream creates the file where it leads,
			// which only a write through it reaches.
			write = func() error { return vfs.WriteFileString(fsys, source, content, 0o644) }
		}
		if err := write(); err != nil {
			return "", &WriteError{Step: "create source", Path: source, Err: err}
		}
		return "", nil
	}
	if err != nil {
		if _, mem := fsys.(*vfs.MemFS); mem {
			// A MemFS's Probe answers with the bare errno: the error as Stat makes it.
			if _, serr := fsys.Stat(source); serr != nil {
				err = serr
			}
		}
		return "", &WriteError{Step: "create source", Path: source, Err: err}
	}
	switch {
	case directory && !mode.IsDir():
		return "", &StateError{Path: source, Msg: fmt.Sprintf("State source path '%s' must be a directory.", source)}
	case directory:
		return "", &WriteError{Step: "create source", Path: source, Err: mkErr}
	case mode.IsDir():
		return "", &StateError{Path: source, Msg: fmt.Sprintf("State source path '%s' must be a file.", source)}
	}
	def, ok := initialContent(source)
	if !ok {
		return "", nil
	}
	data, err := fsys.ReadFile(source)
	if err != nil {
		return "", &WriteError{Step: "create source", Path: source, Err: err}
	}
	if strings.TrimSpace(string(data)) != "" {
		return "", nil
	}
	if folder != "" {
		real, err := realPath(fsys, source)
		if err != nil {
			return "", &WriteError{Step: "create source", Path: source, Err: err}
		}
		realFolder, err := realPath(fsys, folder)
		if err != nil {
			return "", &WriteError{Step: "create source", Path: folder, Err: err}
		}
		if !vfs.Within(real, realFolder) {
			return fmt.Sprintf("State source path '%s' is blank and was not reset to its default: it leads through a symbolic link out of profile folder '%s' (to '%s'), where Outfitter never writes.", source, folder, real), nil
		}
	}
	// The reset goes where a link leads, as upstream's write through it.
	real, err := realPath(fsys, source)
	if err != nil {
		return "", &WriteError{Step: "create source", Path: source, Err: err}
	}
	perm, err := existingPerm(fsys, real, 0o644)
	inUse := false
	if err == nil {
		inUse, err = resetBlank(fsys, real, []byte(def), perm)
	}
	if err != nil {
		return "", &WriteError{Step: "create source", Path: source, Err: err}
	}
	if inUse {
		return fmt.Sprintf("State source '%s' is blank but in use by another session; left as it is.", source), nil
	}
	return "", nil
}

// copyTree copies a file or a directory tree (the copy fallback, on a
// backend without links): what links lead to, directories writable by
// their owner.
func copyTree(fsys FS, src, dst string) error {
	return vfs.Copy(fsys, dst, fsys, src, vfs.CopyOptions{
		Links:   vfs.LinksFollow,
		DirPerm: func(perm fs.FileMode) fs.FileMode { return perm | 0o700 },
	})
}
