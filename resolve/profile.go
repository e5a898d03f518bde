package resolve

import "slices"

// ValidID reports whether id is a filesystem-safe profile id: lowercase
// alphanumerics with inner '.', '_' and '-' (upstream's
// ^[a-z0-9][a-z0-9._-]*[a-z0-9]$|^[a-z0-9]$).
func ValidID(id string) bool {
	if id == "" {
		return false
	}
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	for i := 0; i < len(id); i++ {
		c := id[i]
		inner := i > 0 && i < len(id)-1
		if !alnum(c) && !(inner && (c == '.' || c == '_' || c == '-')) {
			return false
		}
	}
	return true
}

// twins are the snake_case controls whose camelCase spelling upstream's
// loader adds after the raw keys, in the order it adds them.
var twins = [...][2]string{
	{"session_directory", "sessionDirectory"},
	{"prompt_template", "promptTemplate"},
	{"system_prompt", "systemPrompt"},
	{"append_system_prompt", "appendSystemPrompt"},
}

// ParseProfile parses and validates one profile document for the known
// agents. slug is the folder name or file stem, used when the document has
// no string id; file names the document in issues. On failure the single
// issue (upstream reports the first problem only) has File = file and a
// JSON pointer.
func ParseProfile(data []byte, slug, file string, agents *Agents) (*Profile, *Issue) {
	return (*Cache)(nil).parseProfile(data, slug, file, agents)
}

// parseProfileDoc parses and validates a profile document; the id defaults
// to the slug.
func parseProfileDoc(data []byte, slug, file string, agents *Agents) (*Object, *Issue) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, yamlIssue(err, file, "/profile.yml")
	}
	obj, ok := doc.(*Object)
	if !ok {
		return nil, &Issue{File: file, Pointer: "/", Message: "Profile document must be a mapping."}
	}
	if _, ok := obj.Value("id").(string); !ok {
		obj.Set("id", slug)
	}
	if issues := agents.schemaSet().validate(profileSchema, obj, file); len(issues) > 0 {
		return nil, issues[0]
	}
	return obj, nil
}

// buildProfile converts a document validated for agents into the internal
// profile. The profile takes over the document's state_persistence and
// controls mappings (and adds the camelCase twins to the latter and to its
// agent blocks): doc is consumed.
func buildProfile(doc *Object, agents *Agents) *Profile {
	var state *Object
	if sp, ok := doc.Value("state_persistence").(*Object); ok && sp.Len() > 0 {
		state = sp
	}
	controls, ok := doc.Value("controls").(*Object)
	if !ok {
		controls = NewObject()
	}
	addTwins(controls)
	for _, agent := range agents.list() {
		if nested, ok := controls.Value(agent).(*Object); ok {
			addTwins(nested)
		}
	}
	return readProfile(doc, "profile_export", state, controls, agents.list())
}

// readProfile reads the scalar fields of a profile document (raw or
// internal, which differ in the profile_export key) around the given state
// persistence and controls mappings; the controls keys named by agents are
// agent blocks.
func readProfile(o *Object, exportKey string, state, controls *Object, agents []string) *Profile {
	p, fs := newProfile()
	*p = Profile{
		ID:               str(o, "id"),
		Label:            fs.str(o, "label"),
		Description:      fs.str(o, "description"),
		Template:         boolField(o, "template"),
		Inherits:         stringList(o, "inherits"),
		ProfileExport:    boolField(o, exportKey),
		StatePersistence: state,
		Controls:         readGeneric(controls, agents, &fs),
	}
	if p.Inherits == nil {
		p.Inherits = []string{}
	}
	return p
}

// profileBlock is a profile and room for the first strings its optional
// fields point to, one allocation.
type profileBlock struct {
	p    Profile
	strs [4]string
}

// newProfile returns an empty profile and the field store of its
// strings, which starts in the profile's own block.
func newProfile() (*Profile, fieldStore) {
	b := new(profileBlock)
	return &b.p, fieldStore{strs: b.strs[:0]}
}

// addTwins sets the camelCase spelling of each snake_case control from
// the snake_case key alone, as upstream's loader does after spreading the
// raw keys (profiles/ProfileLoader.ts:352-357 and :377-394): the alias
// keeps the place of a raw camelCase key and is appended otherwise, and a
// camelCase key without its snake_case twin is dropped.
func addTwins(controls *Object) {
	for _, t := range twins {
		if v, ok := controls.Get(t[0]); ok && v != nil {
			controls.Set(t[1], CloneValue(v))
		} else {
			controls.Delete(t[1])
		}
	}
}

// cloneProfile returns a deep copy of p that shares nothing mutable with
// it: the mappings are cloned and the typed fields read anew from them.
func cloneProfile(p *Profile) *Profile {
	q, fs := newProfile()
	*q = Profile{
		ID:               p.ID,
		Label:            fs.keep(p.Label),
		Description:      fs.keep(p.Description),
		Template:         clonePtr(p.Template),
		Inherits:         slices.Clone(p.Inherits),
		ProfileExport:    clonePtr(p.ProfileExport),
		StatePersistence: p.StatePersistence.Clone(),
		Controls:         readGeneric(p.Controls.Object.Clone(), agentIDs(p, make([]string, 0, 4)), &fs),
	}
	if q.Inherits == nil {
		q.Inherits = []string{}
	}
	return q
}

// agentIDs appends the ids of p's agent blocks to ids.
func agentIDs(p *Profile, ids []string) []string {
	for _, a := range p.Controls.Agents {
		ids = append(ids, a.Agent)
	}
	return ids
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return ptrTo(*p)
}

// profileObject is the document form of a profile used for merging, with
// upstream's internal key names.
func profileObject(p *Profile) *Object {
	o := NewObject()
	o.Set("id", p.ID)
	if p.Label != nil {
		o.Set("label", *p.Label)
	}
	if p.Description != nil {
		o.Set("description", *p.Description)
	}
	if p.Template != nil {
		o.Set("template", *p.Template)
	}
	o.Set("inherits", inheritsValue(p))
	o.Set("controls", p.Controls.Object)
	if p.StatePersistence != nil {
		o.Set("statePersistence", p.StatePersistence)
	}
	if p.ProfileExport != nil {
		o.Set("profileExport", *p.ProfileExport)
	}
	return o
}

// inheritsValue is p's inherits list as a document value.
func inheritsValue(p *Profile) []any {
	inherits := make([]any, len(p.Inherits))
	for i, s := range p.Inherits {
		inherits[i] = s
	}
	return inherits
}

// profileFromObject reads a merged document back into a profile; the
// controls keys named by agents are agent blocks.
func profileFromObject(o *Object, agents []string) *Profile {
	state, _ := o.Value("statePersistence").(*Object)
	controls, ok := o.Value("controls").(*Object)
	if !ok {
		controls = NewObject()
	}
	return readProfile(o, "profileExport", state, controls, agents)
}

// readGeneric builds the typed view of a profile's controls mapping, the
// blocks of agents included. String fields are copies kept in fs.
func readGeneric(o *Object, agents []string, fs *fieldStore) Controls {
	c := readControls(o, fs)
	if dw, ok := o.Value("deepwork").(*Object); ok {
		c.DeepworkJobs = stringList(dw, "jobs")
	}
	n := 0
	for _, agent := range agents {
		if _, ok := o.Value(agent).(*Object); ok {
			n++
		}
	}
	if n == 0 {
		return c
	}
	c.Agents = make([]AgentControls, 0, n)
	for _, agent := range agents {
		if a, ok := o.Value(agent).(*Object); ok {
			c.Agents = append(c.Agents, AgentControls{Agent: agent, Controls: readControls(a, fs)})
		}
	}
	return c
}

// readControls builds the typed view of the controls every block has.
// String fields are copies kept in fs.
func readControls(o *Object, fs *fieldStore) Controls {
	return Controls{
		Object:             o,
		Model:              fs.str(o, "model"),
		Provider:           fs.str(o, "provider"),
		Thinking:           fs.str(o, "thinking"),
		SessionDirectory:   fs.twin(o, 0),
		PromptTemplate:     fs.twin(o, 1),
		SystemPrompt:       fs.twin(o, 2),
		Args:               stringList(o, "args"),
		Extensions:         stringList(o, "extensions"),
		Skills:             readSkills(o.Value("skills")),
		AppendSystemPrompt: readPrompts(o, twins[3][1]),
		Environment:        readEnvironment(o.Value("environment")),
	}
}

// fieldStore holds the copies behind the optional string fields of one
// profile, several to an allocation. A pointer it returns stays valid and
// distinct from every other; nothing else refers to the strings.
type fieldStore struct{ strs []string }

// str returns a pointer to a copy of o's string value for key, or nil.
func (fs *fieldStore) str(o *Object, key string) *string {
	s, ok := o.Value(key).(string)
	if !ok {
		return nil
	}
	// Allocating when the batch is not full ("!=") would only allocate
	// more: each pointer stays valid and distinct either way.
	//mutants:equivalent CONDITIONALS_NEGATION
	if len(fs.strs) == cap(fs.strs) {
		fs.strs = make([]string, 0, 8)
	}
	fs.strs = append(fs.strs, s)
	return &fs.strs[len(fs.strs)-1]
}

// keep returns a pointer to a copy of *s, or nil for nil.
func (fs *fieldStore) keep(s *string) *string {
	if s == nil {
		return nil
	}
	// As in str: "!=" (a mutant) only allocates more.
	//mutants:equivalent CONDITIONALS_NEGATION
	if len(fs.strs) == cap(fs.strs) {
		fs.strs = make([]string, 0, 8)
	}
	fs.strs = append(fs.strs, *s)
	return &fs.strs[len(fs.strs)-1]
}

// twin reads the camelCase spelling of twins[i], which [addTwins] set
// from the snake_case key and which merging keeps.
func (fs *fieldStore) twin(o *Object, i int) *string {
	return fs.str(o, twins[i][1])
}

func readSkills(v any) []Skill {
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]Skill, 0, len(list))
	for _, e := range list {
		switch e := e.(type) {
		case string:
			out = append(out, Skill{Value: e})
		case *Object:
			s := Skill{Mapping: true, ID: str(e, "id")}
			refs, _ := e.Value("references").([]any)
			for _, r := range refs {
				if ro, ok := r.(*Object); ok {
					if p, ok := ro.Value("repo_file").(string); ok {
						s.References = append(s.References, Reference{Repo: true, Path: p})
					} else {
						s.References = append(s.References, Reference{Path: str(ro, "file")})
					}
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// readPrompts reads an append_system_prompt value (one entry or a list)
// as a list from the key that holds it (appendSystemPrompt, which
// [addTwins] set from append_system_prompt).
func readPrompts(o *Object, key string) []PromptEntry {
	if v, ok := o.Get(key); ok {
		return promptEntries(v)
	}
	return nil
}

func promptEntries(v any) []PromptEntry {
	var out []PromptEntry
	for _, e := range asList(v) {
		switch e := e.(type) {
		case string:
			out = append(out, PromptEntry{Kind: PromptText, Value: e})
		case *Object:
			if f, ok := e.Value("file").(string); ok {
				out = append(out, PromptEntry{Kind: PromptFile, Value: f})
			} else if f, ok := e.Value("repo_file").(string); ok {
				out = append(out, PromptEntry{Kind: PromptRepoFile, Value: f})
			}
		}
	}
	return out
}

func readEnvironment(v any) []EnvVar {
	o, ok := v.(*Object)
	if !ok {
		return nil
	}
	out := make([]EnvVar, 0, o.Len())
	for i := range o.Len() {
		k, v := o.At(i)
		if s, ok := v.(string); ok {
			out = append(out, EnvVar{Name: k, Value: s})
		}
	}
	return out
}
