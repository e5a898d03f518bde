package sim

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures"
	"github.com/outfitter-go/vfsim/vfs"
	"github.com/outfitter-go/vfsim/writeback"
)

// An Agent stands for the agent process of one run. It is started after
// the composite is materialized and the baseline taken, with the final
// launch plan, and returns how it ended. An Agent that returns an error
// fails the run (the error becomes the run's error).
type Agent interface {
	Run(ctx context.Context, s *Session) (writeback.Exit, error)
}

// AgentFunc adapts a function to [Agent].
type AgentFunc func(ctx context.Context, s *Session) (writeback.Exit, error)

// Run calls f.
func (f AgentFunc) Run(ctx context.Context, s *Session) (writeback.Exit, error) { return f(ctx, s) }

// Session is what an [Agent] sees of its run.
type Session struct {
	// AgentID is the adapter id ("pi", "claude").
	AgentID string
	// Adapter is the agent's adapter.
	Adapter composite.Adapter
	// Plan is the final launch plan (env and args as the process gets them).
	Plan composite.LaunchPlan
	// Root is the composite root, the agent's config directory.
	Root string
	// FS is the machine's file system. Writes follow symbolic links as a
	// process's would: a write through a symlinked state path lands in
	// its durable source.
	FS vfs.ReadWriteFS
	// Interactive reports an interactive session.
	Interactive bool

	refresh func() error
}

// Path returns the absolute name of a path relative to the composite root.
// It refuses names that are absolute or climb out of the root lexically.
func (s *Session) Path(rel string) (string, error) {
	if rel == "" || path.IsAbs(rel) {
		return "", fmt.Errorf("agent path %q: want a path relative to the composite root", rel)
	}
	clean := path.Clean(rel)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("agent path %q: leaves the composite root", rel)
	}
	// Keep a trailing slash: it changes how the kernel treats the name.
	full := path.Join(s.Root, clean)
	if strings.HasSuffix(rel, "/") {
		full += "/"
	}
	return full, nil
}

// Refresh re-generates the composite's generated files from their current
// inputs, as upstream's live-update watcher does after an edit; state
// paths are not re-materialized. It fails when the run has no refresh.
func (s *Session) Refresh() error {
	if s.refresh == nil {
		return errors.New("refresh: not available in this run")
	}
	return s.refresh()
}

// Script is the [Agent] of scenario files: it applies the in-run ops of a
// scenario ([fixtures.Op]) in order. File ops act on paths relative to the
// composite root and follow links; edit_source writes a durable input (a
// token path) and refresh re-generates files from it; exit and signal end
// the agent; expect_* ops check the composite while the agent runs, and a
// failed check ends the run with an [*ExpectError]. Without an exit or a
// signal op the agent exits with code 0.
type Script struct {
	// Ops are the run's ops, in order.
	Ops []fixtures.Op
	// Tokens expands token paths (edit_source) and tokenizes link targets
	// (expect_symlink); its composite root is set per run.
	Tokens fixtures.Tokens
}

// ExpectError reports an in-run check of a [Script] that did not hold.
type ExpectError struct {
	// Index is the op's position in the run's ops.
	Index int
	// Op is the op kind.
	Op fixtures.OpKind
	// Path is the op's path or variable name.
	Path string
	// Problem says what was found instead.
	Problem string
}

// Error describes the failed check.
func (e *ExpectError) Error() string {
	return fmt.Sprintf("ops[%d] %s %s: %s", e.Index, e.Op, e.Path, e.Problem)
}

// Run applies the ops.
func (sc Script) Run(ctx context.Context, s *Session) (writeback.Exit, error) {
	tok := sc.Tokens
	tok.Composite = s.Root
	for i, op := range sc.Ops {
		if err := ctx.Err(); err != nil {
			return writeback.Exit{}, err
		}
		fail := func(problem string, args ...any) error {
			p := op.Path
			if op.Op == fixtures.OpExpectEnv {
				p = op.Name
			}
			return &ExpectError{Index: i, Op: op.Op, Path: p, Problem: fmt.Sprintf(problem, args...)}
		}
		var name string
		if op.Path != "" && op.Op != fixtures.OpEditSource {
			var err error
			if name, err = s.Path(op.Path); err != nil {
				return writeback.Exit{}, fmt.Errorf("ops[%d]: %w", i, err)
			}
		}
		var err error
		switch op.Op {
		case fixtures.OpWrite:
			err = s.FS.WriteFile(name, []byte(op.Data), 0o644)
		case fixtures.OpAppend:
			err = appendFile(s.FS, name, op.Data)
		case fixtures.OpMkdir:
			err = s.FS.Mkdir(name, 0o755)
		case fixtures.OpMkdirAll:
			err = s.FS.MkdirAll(name, 0o755)
		case fixtures.OpRemove:
			err = s.FS.Remove(name)
		case fixtures.OpRemoveAll:
			err = s.FS.RemoveAll(name)
		case fixtures.OpSymlink:
			target := op.Target
			if strings.HasPrefix(target, "<") {
				if target, err = tok.Expand(target); err != nil {
					break
				}
			}
			err = s.FS.Symlink(target, name)
		case fixtures.OpRename:
			var to string
			if to, err = s.Path(op.To); err == nil {
				err = s.FS.Rename(name, to)
			}
		case fixtures.OpExpectFile:
			data, rerr := s.FS.ReadFile(name)
			switch {
			case rerr != nil:
				return writeback.Exit{}, fail("cannot read: %v", rerr)
			case op.Contains != nil && !strings.Contains(string(data), *op.Contains):
				return writeback.Exit{}, fail("content %q does not contain %q", data, *op.Contains)
			case op.Contains == nil && string(data) != op.Data:
				return writeback.Exit{}, fail("content %q, want %q", data, op.Data)
			}
		case fixtures.OpExpectSymlink:
			target, rerr := s.FS.ReadLink(name)
			if rerr != nil {
				return writeback.Exit{}, fail("not a symbolic link: %v", rerr)
			}
			if got := tok.Tokenize(target); got != op.Target {
				return writeback.Exit{}, fail("target %q, want %q", got, op.Target)
			}
		case fixtures.OpExpectAbsent:
			if _, lerr := s.FS.Lstat(name); !errors.Is(lerr, fs.ErrNotExist) {
				return writeback.Exit{}, fail("exists (%v)", lerr)
			}
		case fixtures.OpExpectDir:
			fi, lerr := s.FS.Lstat(name)
			if lerr != nil || !fi.IsDir() {
				return writeback.Exit{}, fail("not a real directory (%v)", describe(fi, lerr))
			}
		case fixtures.OpExpectEnv:
			v, ok := s.Plan.Getenv(op.Name)
			if !ok {
				return writeback.Exit{}, fail("not set, want %q", op.Value)
			}
			if v = tok.Tokenize(v); v != op.Value {
				return writeback.Exit{}, fail("%q, want %q", v, op.Value)
			}
		case fixtures.OpExit:
			return writeback.Exit{Exited: true, Code: op.Code}, nil
		case fixtures.OpSignal:
			return writeback.Exit{Signal: op.Name}, nil
		case fixtures.OpEditSource:
			var full string
			if full, err = tok.Expand(op.Path); err == nil {
				err = s.FS.WriteFile(full, []byte(op.Data), 0o644)
			}
		case fixtures.OpRefresh:
			err = s.Refresh()
		default:
			err = fmt.Errorf("op %q cannot run inside an agent", op.Op)
		}
		if err != nil {
			return writeback.Exit{}, fmt.Errorf("ops[%d] %s %s: %w", i, op.Op, op.Path, err)
		}
	}
	return writeback.Exit{Exited: true, Code: 0}, nil
}

func appendFile(fsys vfs.ReadWriteFS, name, data string) error {
	f, err := fsys.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write([]byte(data))
	if err1 := f.Close(); err == nil {
		err = err1
	}
	return err
}

func describe(fi fs.FileInfo, err error) string {
	if err != nil {
		return err.Error()
	}
	return fi.Mode().Type().String()
}
