package sim

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/vfs"
)

// Report is the run report of one scenario (the vfsim run --json format):
// every run's launch, composite at launch, warnings, error and exit code,
// and the durable difference of the whole fixture tree.
type Report struct {
	// Scenario is the scenario's name.
	Scenario string `json:"scenario"`
	// Runs holds one report per run, in order.
	Runs []RunReport `json:"runs"`
	// Durable is the difference of the fixture tree (composite roots
	// excluded) between load, after the before ops, and the end of the
	// last run; paths are relative to <fixture>.
	Durable report.Delta `json:"durable"`
}

// RunReport is the report of one run. Launch-time fields are present
// whenever the run got as far as the launch.
type RunReport struct {
	ProfileID         string                  `json:"profileId,omitempty"`
	AgentID           string                  `json:"agentId,omitempty"`
	Launch            *Launch                 `json:"launch,omitempty"`
	GeneratedProfile  json.RawMessage         `json:"generatedProfile,omitempty"`
	Summary           *Summary                `json:"summary,omitempty"`
	CompositeAtLaunch map[string]report.Entry `json:"compositeAtLaunch,omitempty"`
	Warnings          []string                `json:"warnings"`
	// Messages are the lines upstream prints that are not warnings
	// (Result.Messages: notices on standard output, messages on standard
	// error such as the system-prompt export's skip notices); --strict
	// never fails on them. Absent when there are none.
	Messages []string `json:"messages,omitempty"`
	Error    *string  `json:"error"`
	ExitCode int      `json:"exitCode"`
}

// Launch is the tokenized launch plan of a run.
type Launch struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Env     Env      `json:"env"`
}

// Env is an ordered environment; its JSON is an object in plan order.
type Env []composite.EnvVar

// MarshalJSON writes the variables as an object, in order.
func (e Env) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, v := range e {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(&b, v.Name)
		b.WriteByte(':')
		writeString(&b, v.Value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Summary is the launch summary of a run, the shape of the upstream
// fixtures' composite-profile-summary.json files.
type Summary struct {
	LaunchCommand        string            `json:"launchCommand"`
	LaunchArgs           []string          `json:"launchArgs"`
	LaunchEnv            Env               `json:"launchEnv"`
	GeneratedProfile     json.RawMessage   `json:"generatedProfile,omitempty"`
	StateTargets         map[string]string `json:"stateTargets"`
	MCPConfig            json.RawMessage   `json:"mcpConfig,omitempty"`
	GeneratedKeybindings json.RawMessage   `json:"generatedKeybindings,omitempty"`
	NativeModels         json.RawMessage   `json:"nativeModels,omitempty"`
}

// ReportOf builds the report of one run, tokenized as in a scenario's
// report: in every string it carries (the launch plan, the warnings, the
// error, the generated documents and file texts) the composite root
// becomes <composite-profile> and the fixture roots their tokens.
func ReportOf(r *Result) RunReport {
	tok := report.Tokens{Composite: r.Root}
	rr := RunReport{ProfileID: r.ProfileID, AgentID: r.AgentID, Warnings: tok.TokenizeAll(r.Warnings), Messages: tok.TokenizeAll(r.Messages), ExitCode: r.ExitCode}
	if rr.Warnings == nil {
		rr.Warnings = []string{}
	}
	if r.Err != nil {
		msg := tok.Tokenize(r.Err.Error())
		rr.Error = &msg
	}
	if !r.Launched {
		return rr
	}
	env := make(Env, len(r.Plan.Env))
	for i, v := range r.Plan.Env {
		env[i] = composite.EnvVar{Name: v.Name, Value: tok.Tokenize(v.Value)}
	}
	args := tok.TokenizeAll(r.Plan.Args)
	if args == nil {
		args = []string{}
	}
	rr.Launch = &Launch{Command: r.Plan.Command, Args: args, Env: env}
	jt := newJSONTokenizer(tok)
	rr.GeneratedProfile = rawJSON(r.GeneratedProfile, jt)
	rr.CompositeAtLaunch = report.ProjectTree(r.AtLaunch, tok)
	s := &Summary{
		LaunchCommand: r.Plan.Command, LaunchArgs: args, LaunchEnv: env,
		GeneratedProfile: rr.GeneratedProfile, StateTargets: make(map[string]string, links(rr.CompositeAtLaunch)),
	}
	for p, e := range rr.CompositeAtLaunch { // link targets tokenized once
		if e.Type == vfs.TypeSymlink {
			s.StateTargets[strings.TrimSuffix(p, "/")] = e.Target
		}
	}
	if e, ok := r.AtLaunch[".mcp.json"]; ok && e.Type == vfs.TypeFile {
		s.MCPConfig = rawJSON(e.Data, jt)
	}
	if e, ok := r.AtLaunch["keybindings.json"]; ok && e.Type == vfs.TypeFile {
		s.GeneratedKeybindings = rawJSON(e.Data, jt)
	}
	s.NativeModels = rawJSON(r.nativeModels, jt)
	rr.Summary = s
	return rr
}

// links counts the symbolic links of a projected tree, the size hint of
// the map of their targets: a wrong count (a mutant of the test or the
// increment) changes no result.
func links(t map[string]report.Entry) int {
	n := 0
	for _, e := range t {
		//mutants:equivalent CONDITIONALS_NEGATION
		if e.Type == vfs.TypeSymlink {
			//mutants:equivalent INCREMENT_DECREMENT
			n++
		}
	}
	return n
}

// rawJSON returns data as a compact JSON value with its strings tokenized,
// or nil when it is not JSON.
func rawJSON(data []byte, t jsonTokenizer) json.RawMessage {
	compact, ok := report.CompactJSON(data)
	if !ok {
		return nil
	}
	return t.tokenize(compact)
}

// tokenizeStrings returns the compact JSON data with every string
// tokenized (decoded, tokenized and encoded again when it changes). A
// string without an escape that holds neither root is left as it is
// without decoding it: Tokenize only changes a string holding one.
func tokenizeStrings(data []byte, tok report.Tokens) json.RawMessage {
	return newJSONTokenizer(tok).tokenize(data)
}

// jsonTokenizer tokenizes the strings of JSON texts for one set of roots.
type jsonTokenizer struct {
	tok       report.Tokens
	composite []byte // the composite root, cleaned; nil when there is none
}

func newJSONTokenizer(tok report.Tokens) jsonTokenizer {
	t := jsonTokenizer{tok: tok}
	if tok.Composite != "" {
		t.composite = []byte(path.Clean(tok.Composite))
	}
	return t
}

// tokenize is [tokenizeStrings] for t's roots; the buffer of the result is
// made only when a string changes.
func (t jsonTokenizer) tokenize(data []byte) json.RawMessage {
	var b *bytes.Buffer
	last := 0 // data[last:] is not yet copied to b
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		end := i + 1
		escaped := false
		for data[end] != '"' {
			if data[end] == '\\' {
				end++
				escaped = true
			}
			end++
		}
		end++
		// raw is the string's text without its quotes; it only picks the
		// strings worth decoding, so a slice reaching past the closing
		// quote (end+1) would decode more of them to the same result.
		//mutants:equivalent ARITHMETIC_BASE@27 INVERT_NEGATIVES@27
		if raw := data[i+1 : end-1]; !escaped && !bytes.Contains(raw, fixtureRoot) && (t.composite == nil || !bytes.Contains(raw, t.composite)) {
			i = end - 1
			continue
		}
		var str string
		if json.Unmarshal(data[i:end], &str) == nil {
			if tokenized := t.tok.Tokenize(str); tokenized != str {
				if b == nil {
					// A capacity only: another one changes no result.
					//mutants:equivalent ARITHMETIC_BASE
					b = bytes.NewBuffer(make([]byte, 0, len(data)+len(data)/8))
				}
				b.Write(data[last:i])
				writeString(b, tokenized)
				last = end
			}
		}
		i = end - 1
	}
	if b == nil {
		return data
	}
	b.Write(data[last:])
	return b.Bytes()
}

// fixtureRoot is [report.FixtureRoot], which every fixture root starts with.
var fixtureRoot = []byte(report.FixtureRoot)

// writeString writes s as a JSON string without HTML escaping, so tokens
// such as <home> stay readable.
func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // drop the encoder's newline
}

// value returns the summary as the values expectations compare: its own
// strings, lists and maps for the plain fields (shared, read only), and the
// raw JSON of its generated documents, which a comparison decodes only
// when an expected file looks at them.
func (s *Summary) value() map[string]any {
	env := make(map[string]string, len(s.LaunchEnv))
	for _, v := range s.LaunchEnv {
		env[v.Name] = v.Value
	}
	m := map[string]any{
		"launchCommand": s.LaunchCommand,
		"launchArgs":    s.LaunchArgs,
		"launchEnv":     env,
		"stateTargets":  s.StateTargets,
	}
	for _, f := range [...]struct {
		key string
		raw json.RawMessage
	}{
		{"generatedProfile", s.GeneratedProfile},
		{"mcpConfig", s.MCPConfig},
		{"generatedKeybindings", s.GeneratedKeybindings},
		{"nativeModels", s.NativeModels},
	} {
		if f.raw != nil {
			m[f.key] = f.raw
		}
	}
	return m
}
