package resolve

import "sync"

// Cache memoizes the expensive part of loading a settings or profile file:
// YAML parsing, schema validation and conversion, keyed by the file's name
// and exact content. Runs that read the same files again (every scenario of
// a fixture, every case of a property test) parse each distinct file once.
// A Cache is safe for concurrent use; give one to [Options].Cache. Results
// are identical with and without it, and a caller may modify a [Result]
// freely: what the cache holds is never modified and never handed out,
// [Load] copies every part of it that a Result exposes. It holds at most a
// bounded number of files and starts over when full.
type Cache struct {
	mu      sync.Mutex
	entries map[memoKey]*cachedDoc
	limit   int
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{limit: 4096} }

type memoKey struct {
	kind       byte // 's' settings, 'p' profile
	file, slug string
	scope      SettingsScope
	data       string
}

// cachedDoc is the outcome of one file. Invariant: its values are never
// modified after put and never reach a caller; readers copy what they
// expose (see cloneProfile and mergeSettings).
type cachedDoc struct {
	settings *fileSettings
	profile  *Profile
	issues   []*Issue // validation or parse problems
}

func (c *Cache) get(k memoKey) (*cachedDoc, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	return e, ok
}

func (c *Cache) put(k memoKey, e *cachedDoc) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= c.limit {
		c.entries = make(map[memoKey]*cachedDoc)
	}
	c.entries[k] = e
}

// settingsFile parses, validates and converts a settings file, through the
// cache. The record is shared with the cache: callers only read it.
func (c *Cache) settingsFile(data []byte, name string, scope SettingsScope) (*fileSettings, []*Issue) {
	k := memoKey{kind: 's', file: name, scope: scope, data: string(data)}
	if e, ok := c.get(k); ok {
		return e.settings, e.issues
	}
	e := &cachedDoc{}
	doc, issues := parseSettingsDoc(data, name)
	if len(issues) > 0 {
		e.issues = issues
	} else {
		e.settings = convertSettings(doc, name, scope)
	}
	c.put(k, e)
	return e.settings, e.issues
}

// parseProfile parses, validates and builds a profile, through the cache.
// A profile from the cache is shared: callers only read it, and [Load]
// hands out copies (see cloneProfile).
func (c *Cache) parseProfile(data []byte, slug, file string) (*Profile, *Issue) {
	k := memoKey{kind: 'p', file: file, slug: slug, data: string(data)}
	if e, ok := c.get(k); ok {
		if len(e.issues) > 0 {
			return nil, e.issues[0]
		}
		return e.profile, nil
	}
	e := &cachedDoc{}
	doc, issue := parseProfileDoc(data, slug, file)
	if issue != nil {
		e.issues = []*Issue{issue}
	} else {
		e.profile = buildProfile(doc)
	}
	c.put(k, e)
	return e.profile, issue
}
