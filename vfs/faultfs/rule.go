package faultfs

import "github.com/outfitter-go/vfsim/vfs"

// Rule decides which operations of an [FS] fail and with which error.
// Build rules with [OnNth], [OnNthOf], [When], [ReadOnly], [ShortWrite],
// [WriteFailsAfter] and [CrashAfter], and narrow them with [Rule.If]. The
// zero Rule never fires.
//
// The error is the sentinel the failed operation wraps in its
// *fs.PathError or *os.LinkError: typically [vfs.ErrNoSpace],
// [vfs.ErrIO], syscall.EACCES (which matches fs.ErrPermission) or
// [vfs.ErrReadOnly].
type Rule struct {
	kind  Kind
	nth   int
	match func(Op) bool
	err   error
	// limit is the number of bytes a file accepts before its writes fail;
	// negative for the rules that fail whole operations.
	limit int64
	// crash makes the rule fail every operation after the nth rather than
	// the nth alone; torn is what the first failed one writes when it
	// writes file content.
	crash bool
	torn  int64
}

// OnNth fails the nth operation of any kind (counting from 1) with err.
func OnNth(n int, err error) Rule { return Rule{nth: n, err: err, limit: -1} }

// OnNthOf fails the nth operation of the given kind with err.
func OnNthOf(kind Kind, n int, err error) Rule {
	return Rule{kind: kind, nth: n, err: err, limit: -1}
}

// When fails every operation for which match returns true with err. match
// runs while the FS holds its lock: it must not call the FS.
func When(match func(Op) bool, err error) Rule { return Rule{match: match, err: err, limit: -1} }

// ReadOnly fails every mutating operation with [vfs.ErrReadOnly] (EROFS),
// like a read-only mount.
func ReadOnly() Rule {
	return When(func(op Op) bool { return op.Mutates }, vfs.ErrReadOnly)
}

// ShortWrite makes every file written accept n bytes, the way a full disk
// does: a file opened with OpenFile takes n bytes over all its Writes, and
// the Write that would pass the mark writes the bytes up to it and returns
// the count with an *fs.PathError (Op "write") wrapping err, later Writes
// failing without writing; a WriteFile creates or truncates the file, as
// os.WriteFile does, writes the first n bytes of its data and returns the
// same error. Narrow it to some files with [Rule.If] (the Op is a "write"
// or "writefile" whose Path is the file's name).
func ShortWrite(n int64, err error) Rule { return Rule{err: err, limit: max(n, 0)} }

// WriteFailsAfter is [ShortWrite] for the file called name alone: each
// file opened or written whole under that name accepts n bytes.
func WriteFailsAfter(name string, n int64, err error) Rule {
	return ShortWrite(n, err).If(func(op Op) bool { return op.Path == name })
}

// CrashAfter lets the first n operations run and fails every later one
// with err, modelling a process that dies after its nth operation: what
// the first n did stays, nothing after happens. The first failed
// operation is the one the crash interrupts: a WriteFile has created or
// truncated its file and written the first torn bytes of its data (torn 0:
// the interruption between the truncation and the write that leaves an
// empty file), a Write on an open file has written its first torn bytes;
// any other operation has no effect. Narrowed with [Rule.If], only the
// operations it selects count and fail.
func CrashAfter(n int, torn int64, err error) Rule {
	return Rule{nth: max(n, 0), err: err, limit: -1, crash: true, torn: max(torn, 0)}
}

// If returns r narrowed to the operations for which match also returns
// true; only those count towards the nth operation of [OnNth], [OnNthOf]
// and [CrashAfter]. match runs while the FS holds its lock: it must not
// call the FS.
func (r Rule) If(match func(Op) bool) Rule {
	prev := r.match
	r.match = func(op Op) bool { return (prev == nil || prev(op)) && match(op) }
	return r
}

// ruleState is a rule with its counter of matching operations.
type ruleState struct {
	Rule
	seen int
}

// writesContent reports whether op writes the bytes of a file.
func writesContent(op Op) bool { return op.Kind == KindWrite || op.Kind == KindWriteFile }

// considers reports whether op is within the rule's kind and predicate.
func (r *ruleState) considers(op Op) bool {
	if r.err == nil {
		return false
	}
	if r.kind != "" && op.Kind != r.kind {
		return false
	}
	return r.match == nil || r.match(op)
}

// verdict is what the rules decide about one operation.
type verdict struct {
	// err is the error to inject, or nil to run the operation.
	err error
	// torn is, for the write a crash interrupts, the number of bytes it
	// still writes before failing; -1 otherwise.
	torn int64
}

// pass is the verdict that runs an operation (torn means nothing
// without an error).
var pass verdict

// fire counts op and returns the rule's verdict. Write-limit rules never
// fail a whole operation here; files apply them.
func (r *ruleState) fire(op Op) verdict {
	if r.limit >= 0 || !r.considers(op) {
		return pass
	}
	r.seen++
	if r.crash {
		switch {
		case r.seen <= r.nth:
			return pass
		case r.seen == r.nth+1 && writesContent(op):
			return verdict{err: r.err, torn: r.torn}
		}
		return verdict{err: r.err, torn: -1}
	}
	if r.nth > 0 && r.seen != r.nth {
		return pass
	}
	return verdict{err: r.err, torn: -1}
}
