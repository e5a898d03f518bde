package resolve

import (
	"net/url"
	"slices"
	"strings"
)

// MaxSkillIDLength is the longest catalog skill id, in bytes.
const MaxSkillIDLength = 64

// ValidSkillID reports whether s is a catalog skill id: at most
// [MaxSkillIDLength] bytes of lowercase ASCII letters and digits in groups
// joined by single hyphens (the pattern ^[a-z0-9]+(-[a-z0-9]+)*$, checked
// without a regular expression).
func ValidSkillID(s string) bool {
	if s == "" || len(s) > MaxSkillIDLength || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// ExtensionIdentity returns the identity under which two extension entries
// are the same resource: npm packages by lowercased name (version and
// #fragment dropped), git repositories by scheme, host and path, paths by
// their absolute form (relative ones against project), anything else by
// its text.
func ExtensionIdentity(entry, project string) string {
	s := strings.TrimSpace(entry)
	switch {
	case strings.HasPrefix(s, "npm:"):
		return "npm:" + npmName(s[len("npm:"):])
	case strings.HasPrefix(s, "github:"):
		return gitIdentity("https://github.com/" + s[len("github:"):])
	case strings.HasPrefix(s, "git:"):
		return gitIdentity(s[len("git:"):])
	case strings.HasPrefix(s, "git+"):
		return gitIdentity(s[len("git+"):])
	case strings.HasPrefix(s, "https://"), strings.HasPrefix(s, "http://"), strings.HasPrefix(s, "ssh://"):
		return gitIdentity(s)
	case strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/"):
		return "path:" + absolute(project, s)
	}
	return "resource:" + s
}

// SkillIdentity returns the identity of a skills entry: "id:<id>" for a
// valid skill id string or an object with a string id, else the
// [ExtensionIdentity] of a string, else the entry's canonical JSON.
func SkillIdentity(entry any, project string) string {
	switch e := entry.(type) {
	case string:
		s := strings.TrimSpace(e)
		if ValidSkillID(s) {
			return "id:" + s
		}
		return ExtensionIdentity(s, project)
	case *Object:
		if id, ok := e.Value("id").(string); ok {
			return "id:" + id
		}
	}
	return defaultKey(entry)
}

// slashPath reports whether p equals want, a '/'-separated path, when
// every '.' in p counts as '/'.
func slashPath(p, want string) bool {
	if len(p) != len(want) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c != want[i] && (c != '.' || want[i] != '/') {
			return false
		}
	}
	return true
}

// agentScope reports whether scope is "controls/<agent>/", either
// separator counting for a slash.
func agentScope(scope, agent string) bool {
	const prefix = len("controls/")
	return len(scope) == prefix+len(agent)+1 && slashPath(scope[:prefix], "controls/") &&
		scope[prefix:prefix+len(agent)] == agent && (scope[len(scope)-1] == '/' || scope[len(scope)-1] == '.')
}

func npmName(spec string) string {
	spec, _, _ = strings.Cut(spec, "#")
	start := 0
	if strings.HasPrefix(spec, "@") {
		start = 1
	}
	if i := strings.Index(spec[start:], "@"); i >= 0 {
		spec = spec[:start+i]
	}
	return strings.ToLower(spec)
}

func gitIdentity(s string) string {
	s, _, _ = strings.Cut(s, "#")
	if strings.HasPrefix(s, "github.com/") {
		s = "https://" + s
	}
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		return "git:" + strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + trimGit(u.EscapedPath()) + ".git"
	}
	return "git:" + trimGit(s) + ".git"
}

func trimGit(s string) string {
	return strings.TrimSuffix(strings.TrimRight(s, "/"), ".git")
}

// profilePolicies returns the path rules of the profile merge: the
// generic controls and the blocks of agents have the same rules;
// identities of relative paths resolve against project.
func profilePolicies(project string, agents []string) policyFunc {
	prepend := &policy{kind: policyPrepend}
	prependList := &policy{kind: policyPrependList}
	extensions := &policy{kind: policyUniqueBy, prepend: true, firstWinner: true, key: func(v any) string {
		if s, ok := v.(string); ok {
			return ExtensionIdentity(s, project)
		}
		return defaultKey(v)
	}}
	skills := &policy{kind: policyUniqueBy, prepend: true, firstWinner: true, key: func(v any) string {
		return SkillIdentity(v, project)
	}}
	jobs := &policy{kind: policyAppendUnique}
	return func(p string) *policy {
		// The path splits at its last '.' or '/', both separators alike.
		i := strings.LastIndexAny(p, "./")
		scope, key := p[:i+1], p[i+1:]
		if !slashPath(scope, "controls/") && !slices.ContainsFunc(agents, func(a string) bool { return agentScope(scope, a) }) {
			if p == "controls.deepwork.jobs" {
				return jobs
			}
			return nil
		}
		switch key {
		case "args":
			return prepend
		case "appendSystemPrompt", "append_system_prompt":
			return prependList
		case "extensions":
			return extensions
		case "skills":
			return skills
		}
		return nil
	}
}
