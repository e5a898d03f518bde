package composite

import (
	"net/url"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// validSkillID reports whether s is a catalog skill id: lowercase letters
// and digits in groups joined by single hyphens, at most 64 characters
// ([resolve.ValidSkillID]).
func validSkillID(s string) bool { return resolve.ValidSkillID(s) }

// extensionIdentity is upstream's normalized resource identity of an
// extension or package source; cwd stands for the process working
// directory that relative paths are resolved against.
func extensionIdentity(source, cwd string) string {
	t := strings.TrimSpace(source)
	switch {
	case strings.HasPrefix(t, "npm:"):
		spec := t[len("npm:"):]
		if i := strings.IndexByte(spec, '#'); i >= 0 {
			spec = spec[:i]
		}
		start := 0
		if strings.HasPrefix(spec, "@") {
			start = 1
		}
		if i := strings.IndexByte(spec[start:], '@'); i >= 0 {
			spec = spec[:start+i]
		}
		return "npm:" + strings.ToLower(spec)
	case strings.HasPrefix(t, "github:"):
		return gitIdentity("https://github.com/" + t[len("github:"):])
	case strings.HasPrefix(t, "git:"), strings.HasPrefix(t, "git+"):
		return gitIdentity(t[len("git:"):])
	case strings.HasPrefix(t, "https://"), strings.HasPrefix(t, "http://"), strings.HasPrefix(t, "ssh://"):
		return gitIdentity(t)
	}
	return pathIdentity(t, cwd)
}

func gitIdentity(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if strings.HasPrefix(s, "github.com/") {
		s = "https://" + s
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" && !strings.ContainsAny(s, " \t\n") {
		return "git:" + u.Scheme + "://" + strings.ToLower(u.Hostname()) + trimGitSuffix(u.Path) + ".git"
	}
	return "git:" + trimGitSuffix(s) + ".git"
}

func trimGitSuffix(s string) string {
	s = strings.TrimRight(s, "/")
	return strings.TrimSuffix(s, ".git")
}

func pathIdentity(t, cwd string) string {
	if strings.HasPrefix(t, ".") || strings.HasPrefix(t, "/") {
		if !path.IsAbs(t) {
			t = vfs.Join(cwd, t)
		}
		return "path:" + path.Clean(t)
	}
	return "resource:" + t
}

// skillIdentity is the identity under which skill entries are deduplicated.
func skillIdentity(s resolve.Skill, cwd string) string {
	if s.Mapping {
		return "id:" + s.ID
	}
	t := strings.TrimSpace(s.Value)
	if validSkillID(t) {
		return "id:" + t
	}
	return extensionIdentity(t, cwd)
}
