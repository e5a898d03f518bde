package resolve

import (
	"encoding/base64"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/outfitter-go/vfsim/vfs"
)

// repoURI is the repository URI of a uri or github reference.
func repoURI(uri, github string) string {
	if uri != "" {
		return uri
	}
	return "git+https://github.com/" + github + ".git"
}

// cacheKey is the directory name of a cached repository: base64url without
// padding of the redacted string.
func cacheKey(s string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(redact(s)))
}

// repoCacheDir is home/.outfitter/cache/repos/<key of uri#ref>.
func repoCacheDir(home, uri, ref string) string {
	return vfs.Join(home, ".outfitter", "cache", "repos", cacheKey(uri+"#"+ref))
}

// RepoURI returns the repository URI of a remote source or remote
// settings entry: uri as written, or git+https://github.com/<github>.git.
func RepoURI(uri, github string) string { return repoURI(uri, github) }

// CacheDir returns the directory a remote source's repository is cloned
// into: home/.outfitter/cache/profiles/<key of the URI> for a uri source
// without ref and path (the legacy layout), else
// home/.outfitter/cache/repos/<key of URI#ref>; "" for a local source.
// Its profiles are at [SourceDirectory].
func (s Source) CacheDir(home string) string {
	switch {
	case !s.Remote():
		return ""
	case s.URI != "" && s.Ref == "" && s.Path == "":
		return vfs.Join(home, ".outfitter", "cache", "profiles", cacheKey(s.URI))
	}
	return repoCacheDir(home, repoURI(s.URI, s.GitHub), s.Ref)
}

// CacheDir returns the directory the entry's repository is cloned into,
// home/.outfitter/cache/repos/<key of URI#ref>.
func (r RemoteSettings) CacheDir(home string) string {
	return repoCacheDir(home, repoURI(r.URI, r.GitHub), r.Ref)
}

// SourceDirectory returns the local directory a profile source maps to:
// the path itself for a local source, else a directory of the repository
// cache under home/.outfitter/cache (never under cache_directory). An
// unsafe repository subpath gives a [*RemotePathError].
func SourceDirectory(home string, s Source) (string, error) {
	if !s.Remote() {
		return s.Path, nil
	}
	// The legacy layout has no subpath: repoSubpath returns its directory.
	return repoSubpath(s.CacheDir(home), s.Path)
}

// repoSubpath joins a repository-relative path to repo, refusing absolute
// paths and paths that leave the repository (lexically).
func repoSubpath(repo, p string) (string, error) {
	if path.IsAbs(p) {
		return "", &RemotePathError{Path: p, Absolute: true}
	}
	if rel := path.Clean(p); rel == ".." || strings.HasPrefix(rel, "../") {
		return "", &RemotePathError{Path: p}
	}
	return vfs.Join(repo, p), nil
}

// RedactURI returns a repository URI with its credentials replaced by
// REDACTED, as upstream shows a remote source in messages and as the
// cache names its directories; a URI without credentials is returned
// unchanged.
func RedactURI(uri string) string { return redact(uri) }

var credentialsPattern = regexp.MustCompile(`//[^/@\s]+@`)

// redact replaces the credentials of a repository URI with REDACTED, so
// that tokens never reach a directory name. URIs without credentials are
// returned unchanged.
func redact(s string) string {
	rest, hadGit := strings.CutPrefix(s, "git+")
	u, err := url.Parse(rest)
	if err != nil || u.Scheme == "" {
		loc := credentialsPattern.FindStringIndex(s)
		if loc == nil {
			return s
		}
		return s[:loc[0]] + "//REDACTED@" + s[loc[1]:]
	}
	if u.User == nil {
		return s
	}
	u.User = url.User("REDACTED")
	u.Host = strings.ToLower(u.Host)
	out := u.String()
	if strings.HasSuffix(rest, "#") && !strings.HasSuffix(out, "#") {
		out += "#"
	}
	if hadGit {
		out = "git+" + out
	}
	return out
}
