package faultfs

import "github.com/outfitter-go/vfsim/vfs"

// Rule decides which operations of an [FS] fail and with which error.
// Build rules with [OnNth], [OnNthOf], [When], [ReadOnly] and
// [WriteFailsAfter], and narrow them with [Rule.If]. The zero Rule never
// fires.
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

// WriteFailsAfter makes each file opened under name accept n bytes of
// writes; the Write that would pass that mark writes the bytes up to it and
// returns the count with an *fs.PathError wrapping err, and later writes
// fail without writing. It models a disk filling up mid-stream.
func WriteFailsAfter(name string, n int64, err error) Rule {
	return Rule{kind: KindWrite, match: func(op Op) bool { return op.Path == name }, err: err, limit: max(n, 0)}
}

// If returns r narrowed to the operations for which match also returns
// true; only those count towards the nth operation of [OnNth] and
// [OnNthOf]. match runs while the FS holds its lock: it must not call the
// FS.
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

// fire counts op and returns the error to inject, or nil. Write-limit
// rules never fail a whole operation here; files apply them.
func (r *ruleState) fire(op Op) error {
	if r.limit >= 0 || !r.considers(op) {
		return nil
	}
	r.seen++
	if r.nth > 0 && r.seen != r.nth {
		return nil
	}
	return r.err
}
