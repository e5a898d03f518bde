package resolve

import (
	"encoding/binary"
	"sync"
)

// Cache memoizes the expensive part of loading a settings or profile file:
// YAML parsing, schema validation and conversion, keyed by the file's name
// and exact content; and the flattening of a profile, keyed by the selected
// id, the project and the cached profiles it read. Runs that read the same
// files again (every scenario of a fixture, every case of a property test)
// parse each distinct file and flatten each distinct stack once. On a
// [*vfs.MemFS], it also keeps each profile source's scan with a clone of
// the file system, and reuses it while [vfs.DiffFS] finds the source
// directory unchanged (for clones of one fixture, a pointer comparison):
// a cached run then neither lists nor reads the profiles it does not use.
// Taking that clone, on a miss, makes the file system's next writes copy
// the nodes they change, as after any Clone.
// A Cache is safe for concurrent use; give one to [Options].Cache. Results
// are identical with and without it, and a caller may modify a [Result]
// freely: what the cache holds is never modified and never handed out,
// [Load] copies every part of it that a Result exposes. It holds at most a
// bounded number of files and starts over when full.
type Cache struct {
	mu sync.Mutex
	// entries holds the outcomes of files by their exact content, then by
	// the rest of their key: a lookup by content then converts no bytes.
	entries map[string]map[memoKey]*cachedDoc
	// docs is the number of outcomes entries holds.
	docs int
	// serials numbers the profiles of entries, never reusing a number, so
	// that a set of cached profiles has a stable name.
	serials map[*Profile]uint64
	next    uint64
	// resolutions memoizes ResolveProfile over cached profiles, keyed by
	// resolutionKey.
	resolutions map[string]*memoResolution
	// sources holds the kept scans of source directories by name (see
	// sourcememo.go).
	sources map[string]*sourceDir
	limit   int
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{limit: 4096} }

// memoKey is what, besides its content, names the outcome of a file.
type memoKey struct {
	kind       byte // 's' settings, 'p' profile
	file, slug string
	scope      SettingsScope
	agents     *Agents // what the document was checked and typed for
}

// cachedDoc is the outcome of one file. Invariant: its values are never
// modified after put and never reach a caller; readers copy what they
// expose (see cloneProfile and mergeSettings).
type cachedDoc struct {
	settings *fileSettings
	profile  *Profile
	issues   []*Issue // validation or parse problems
}

// get returns the outcome of the file with content data and key k.
func (c *Cache) get(data []byte, k memoKey) (*cachedDoc, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[string(data)][k]
	return e, ok
}

// put keeps e as the outcome of the file with content data and key k.
func (c *Cache) put(data []byte, k memoKey, e *cachedDoc) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || c.size() >= c.limit {
		c.reset()
	}
	byKey := c.entries[string(data)]
	if byKey == nil {
		byKey = make(map[memoKey]*cachedDoc, 1)
		c.entries[string(data)] = byKey
	}
	if _, ok := byKey[k]; !ok {
		c.docs++
	}
	byKey[k] = e
	if e.profile != nil {
		//mutants:equivalent INCREMENT_DECREMENT
		c.next++ // only distinct numbers matter: "c.next--" is equivalent
		c.serials[e.profile] = c.next
	}
}

// reset empties the cache; the caller holds mu.
func (c *Cache) reset() {
	c.entries = make(map[string]map[memoKey]*cachedDoc)
	c.docs = 0
	c.serials = make(map[*Profile]uint64)
	c.resolutions = make(map[string]*memoResolution)
	c.sources = make(map[string]*sourceDir)
}

// size is the number of things the cache holds; the caller holds mu.
func (c *Cache) size() int { return c.docs + len(c.resolutions) + len(c.sources) }

// settingsFile parses, validates and converts a settings file, through the
// cache. The record is shared with the cache: callers only read it.
func (c *Cache) settingsFile(data []byte, name string, scope SettingsScope, agents *Agents) (*fileSettings, []*Issue) {
	k := memoKey{kind: 's', file: name, scope: scope, agents: agents}
	if e, ok := c.get(data, k); ok {
		return e.settings, copyIssues(e.issues)
	}
	e := &cachedDoc{}
	doc, issues := parseSettingsDoc(data, name, agents)
	if len(issues) > 0 {
		e.issues = issues
	} else {
		e.settings = convertSettings(doc, name, scope)
	}
	c.put(data, k, e)
	return e.settings, copyIssues(e.issues)
}

// copyIssues returns the caller's own copies of cached issues, which end
// up in errors a caller may change.
func copyIssues(issues []*Issue) []*Issue {
	if len(issues) == 0 {
		return nil
	}
	out := make([]*Issue, len(issues))
	for i, is := range issues {
		c := *is
		out[i] = &c
	}
	return out
}

// parseProfile parses, validates and builds a profile, through the cache.
// A profile from the cache is shared: callers only read it, and [Load]
// hands out copies (see cloneProfile).
func (c *Cache) parseProfile(data []byte, slug, file string, agents *Agents) (*Profile, *Issue) {
	k := memoKey{kind: 'p', file: file, slug: slug, agents: agents}
	if e, ok := c.get(data, k); ok {
		if len(e.issues) > 0 {
			return nil, copyIssues(e.issues)[0]
		}
		return e.profile, nil
	}
	e := &cachedDoc{}
	doc, issue := parseProfileDoc(data, slug, file, agents)
	if issue != nil {
		e.issues = []*Issue{issue}
		issue = copyIssues(e.issues)[0]
	} else {
		e.profile = buildProfile(doc, agents)
	}
	c.put(data, k, e)
	return e.profile, issue
}

// memoResolution is a resolution over cached profiles and the indices,
// in the layers it was resolved from, of its Layers. Layers with the same
// resolution key have the same profiles in the same order, so the indices
// name the same layers in each. Invariant: like a cachedDoc, it is never
// modified and its profiles never reach a caller.
type memoResolution struct {
	res    *Resolution
	layers []int
}

// resolveProfile is [ResolveProfile] through the cache, for layers whose
// profiles come from it. The result is the caller's own: its profiles are
// copies, its layers are the given ones with their profiles replaced by
// those copies (one copy per distinct profile, so that a stack entry that
// is also a layer's profile stays the same pointer).
func (c *Cache) resolveProfile(layers []Layer, id, project string) *Resolution {
	if c == nil {
		return ResolveProfile(layers, id, project)
	}
	key, ok := c.resolutionKey(layers, id, project)
	var memo *memoResolution
	if ok {
		c.mu.Lock()
		memo = c.resolutions[key]
		c.mu.Unlock()
	}
	if memo == nil {
		r, idx := resolveProfile(layers, id, project)
		memo = &memoResolution{res: r, layers: idx}
		if ok {
			c.mu.Lock()
			if c.resolutions != nil && c.size() < c.limit {
				c.resolutions[key] = memo
			}
			c.mu.Unlock()
		}
	}
	copies := make(map[*Profile]*Profile, len(memo.layers))
	own := func(p *Profile) *Profile {
		q, ok := copies[p]
		if !ok {
			q = cloneProfile(p)
			copies[p] = q
		}
		return q
	}
	res := &Resolution{Issues: memo.res.Issues}
	if memo.res.Profile != nil {
		res.Profile = cloneProfile(memo.res.Profile)
	}
	for _, p := range memo.res.Stack {
		res.Stack = append(res.Stack, own(p))
	}
	for _, i := range memo.layers {
		l := layers[i]
		l.Profile = own(l.Profile)
		res.Layers = append(res.Layers, l)
	}
	return res
}

// resolutionKey names a resolution by the selected id, the project and
// the serial numbers of the layers' profiles in order; false when a
// profile is not (or no longer) in the cache. Layers with the same
// profiles resolve alike: ResolveProfile reads nothing else of a layer
// but its id, which is its profile's.
func (c *Cache) resolutionKey(layers []Layer, id, project string) (string, bool) {
	var buf [128]byte // most keys fit; a longer one grows on the heap
	b := buf[:0]
	b = append(b, id...)
	b = append(b, 0)
	b = append(b, project...)
	b = append(b, 0)
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range layers {
		n, ok := c.serials[l.Profile]
		if !ok {
			return "", false
		}
		b = binary.LittleEndian.AppendUint64(b, n)
	}
	return string(b), true
}
