package resolve

import "sync"

// Cache memoizes the expensive part of loading a settings or profile file:
// YAML parsing and schema validation, keyed by the file's name and exact
// content. Runs that read the same files again (every scenario of a
// fixture, every case of a property test) parse each distinct file once.
// A Cache is safe for concurrent use; give one to [Options].Cache. Results
// are identical with and without it: a cached document is deep-copied
// before each use. It holds at most a bounded number of documents and
// starts over when full.
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
	data       string
}

type cachedDoc struct {
	doc    any      // the validated document, never modified
	issues []*Issue // validation or parse problems
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

// settingsDoc parses and validates a settings file, through the cache.
func (c *Cache) settingsDoc(data []byte, name string) (*Object, []*Issue) {
	k := memoKey{kind: 's', file: name, data: string(data)}
	if e, ok := c.get(k); ok {
		if len(e.issues) > 0 {
			return nil, e.issues
		}
		return e.doc.(*Object).Clone(), nil
	}
	doc, issues := parseSettingsDoc(data, name)
	e := &cachedDoc{issues: issues}
	if doc != nil {
		e.doc = doc.Clone()
	}
	c.put(k, e)
	return doc, issues
}

// profileDoc parses and validates a profile file, through the cache.
func (c *Cache) profileDoc(data []byte, slug, file string) (*Object, *Issue) {
	k := memoKey{kind: 'p', file: file, slug: slug, data: string(data)}
	if e, ok := c.get(k); ok {
		if len(e.issues) > 0 {
			return nil, e.issues[0]
		}
		return e.doc.(*Object).Clone(), nil
	}
	doc, issue := parseProfileDoc(data, slug, file)
	e := &cachedDoc{}
	if issue != nil {
		e.issues = []*Issue{issue}
	} else {
		e.doc = doc.Clone()
	}
	c.put(k, e)
	return doc, issue
}
