package vfs

import (
	"path"
	"strings"
)

// Join returns path.Join(dir, elem...). When dir is "/" or a clean
// absolute name and every element is a plain relative name ([PlainRel]),
// the joined name is clean as built and costs one allocation, the
// result's, where path.Join makes two; any other input goes to path.Join.
func Join(dir string, elem ...string) string {
	if !plainDir(dir) {
		return path.Join(append([]string{dir}, elem...)...)
	}
	n := len(dir)
	for _, e := range elem {
		if !PlainRel(e) {
			return path.Join(append([]string{dir}, elem...)...)
		}
		n += 1 + len(e)
	}
	if len(elem) == 0 {
		return dir
	}
	if dir == "/" {
		dir = "" // n, a capacity, counts the slash twice: one byte more
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(dir)
	for _, e := range elem {
		b.WriteByte('/')
		b.WriteString(e)
	}
	return b.String()
}

// plainDir reports whether dir is "/" or a plain absolute name.
func plainDir(dir string) bool { return dir == "/" || plainName(dir) }

// Within reports whether the clean absolute name p is dir or below it:
// every name is within "/", and "/a/bc" is not within "/a/b".
func Within(p, dir string) bool {
	return p == dir || dir == "/" || len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir
}
