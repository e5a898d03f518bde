package composite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// Pi is the adapter of the pi coding agent.
type Pi struct{}

// piID is pi's agent id.
const piID = "pi"

// ID returns "pi".
func (Pi) ID() string { return piID }

// BlockSchema lets pi's block take allow_external_deepwork_jobs.
func (Pi) BlockSchema() string {
	return `{"properties": {"allow_external_deepwork_jobs": {"type": "boolean"}}}`
}

// InstallHint returns upstream's hint for installing pi.
func (Pi) InstallHint() string {
	return "Install Pi with `npm install -g @earendil-works/pi-coding-agent` (see https://pi.dev)."
}

// Declarations returns pi's declared state paths (§2.3). The slice is the
// caller's; the Allowed lists are shared and must not be modified.
func (Pi) Declarations() []Declaration { return slices.Clone(piDeclarations) }

// piDeclarations is read only.
var piDeclarations = []Declaration{
	decl("auth.json", StrategySymlink, StrategySymlink, StrategyError, StrategyPrompt),
	decl("settings.json", StrategySymlink, StrategySymlink, StrategyWarn, StrategyError, StrategyPrompt),
	decl("keybindings.json", StrategySymlink, StrategySymlink, StrategyWarn, StrategyError, StrategyPrompt),
	decl("mcp.json", StrategySymlink, StrategySymlink, StrategyWarn, StrategyError, StrategyPrompt),
	decl("models.json", StrategySymlink, StrategySymlink, StrategyWarn, StrategyError, StrategyPrompt),
	decl("trust.json", StrategySymlink, StrategySymlink, StrategyWarn, StrategyError, StrategyPrompt),
	decl("plugins/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt),
	decl("cache/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	decl("sessions/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	decl("npm/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	decl("git/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	decl("tmp/", StrategySymlink, StrategySymlink, StrategyDiscard),
	decl("utilities/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	decl("bin/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	unknownDeclaration(),
}

// Compose plans pi's composite (§1.9).
func (p Pi) Compose(in *Input) (*Composite, []string, error) {
	merged := in.Controls()
	paths, err := in.StatePaths(piDeclarations, StateSources{
		Override: func(key string) string {
			if key == "utilities/" || key == "bin/" {
				return vfs.Join(in.Cache, "utilities")
			}
			return ""
		},
		Native: nativeSources(in.Home, ".pi/agent", piDeclarations),
	})
	if err != nil {
		return nil, nil, err
	}
	// Upstream reads the settings and keybindings sources before the MCP
	// fragments (agents/pi/PiAdapter.ts:56-74), which decides which
	// broken input fails the run; the files keep their order.
	settingsIdx := slices.IndexFunc(paths, func(s StatePath) bool { return s.RelativePath == "settings.json" })
	settings, err := piSettingsFile(in, merged, stateInput(in.FS, paths[settingsIdx]))
	if err != nil {
		return nil, nil, err
	}
	kbIdx := slices.IndexFunc(paths, func(s StatePath) bool { return s.RelativePath == "keybindings.json" })
	kb, err := piKeybindingsFile(in, stateInput(in.FS, paths[kbIdx]))
	if err != nil {
		return nil, nil, err
	}
	mcp, err := mcpFile(in)
	if err != nil {
		return nil, nil, err
	}
	// Room for the files below and a bundled skill's usual few.
	c := &Composite{Root: in.Root, StatePaths: paths, Files: make([]File, 0, 8)}
	c.Files = append(c.Files, in.ProfileFile())
	if mcp != nil {
		c.Files = append(c.Files, *mcp)
	}
	if settings != nil {
		c.Files = append(c.Files, *settings)
		paths[settingsIdx] = StatePath{RelativePath: "settings.json", Strategy: StrategyDiscard}
	}
	c.Files = append(c.Files, kb)
	paths[kbIdx] = StatePath{RelativePath: "keybindings.json", Strategy: StrategyDiscard}
	plugin, err := in.PluginFiles()
	if err != nil {
		return nil, nil, err
	}
	c.Files = append(c.Files, plugin...)
	jobs, err := missingJobWarnings(in)
	if err != nil {
		return nil, nil, err
	}
	return c, append(in.Unsupported(genericControls, piBlockControls), jobs...), nil
}

// piBlockControls lists the keys of pi's block that pi translates.
var piBlockControls = append(slices.Clone(genericControls), "allow_external_deepwork_jobs", "allowExternalDeepWorkJobs")

// Launch builds pi's launch plan (§3.3).
func (p Pi) Launch(in *Input, c *Composite) (LaunchPlan, []string, error) {
	m := in.Controls()
	sessions, sessionWarning := in.sessionDirectory(m)
	flags := [...]struct {
		name string
		v    *string
	}{
		{"--model", m.Model}, {"--provider", m.Provider}, {"--thinking", m.Thinking},
		{"--session-dir", sessions}, {"--prompt-template", m.PromptTemplate}, {"--system-prompt", m.SystemPrompt},
	}
	prompts, warnings := in.AppendPrompts(m)
	if sessionWarning != "" {
		warnings = append(warnings, sessionWarning)
	}
	skills, skillWarnings, err := piSkillSources(in, c, m)
	if err != nil {
		return LaunchPlan{}, nil, err
	}
	warnings = append(warnings, skillWarnings...)
	// n is a capacity only: any other count, or no slice made ahead,
	// changes no argument, so mutants of this sum, of the flags counted
	// and of the test of n are equivalent.
	n := 2*(len(prompts)+len(m.Extensions)+len(skills)) + len(m.Args) + len(in.PassThrough)
	for _, f := range flags {
		if f.v != nil {
			n += 2
		}
	}
	var args []string
	if n > 0 {
		args = make([]string, 0, n)
	}
	for _, f := range flags {
		if f.v != nil {
			args = append(args, f.name, *f.v)
		}
	}
	for _, pr := range prompts {
		args = append(args, "--append-system-prompt", pr)
	}
	for _, e := range m.Extensions {
		if w := syncedExtension(in, e); w != "" {
			warnings = append(warnings, w)
			continue
		}
		args = append(args, "--extension", piExtensionSource(in, e))
	}
	for _, s := range skills {
		args = append(args, "--skill", s)
	}
	args = append(args, m.Args...)
	args = append(args, in.PassThrough...)
	// Room for the two variables set below; the plan always sets one.
	plan := LaunchPlan{Command: piID, Args: args, Env: append(make([]EnvVar, 0, len(m.Environment)+2), m.Environment...)}
	jobs, ok, err := deepworkJobs(in, plan.Env)
	if err != nil {
		return LaunchPlan{}, nil, err
	}
	if ok {
		plan.Setenv(deepworkEnv, jobs)
	}
	plan.Setenv("PI_CODING_AGENT_DIR", c.Root)
	return plan, warnings, nil
}

// Paths of pi's launch extension and its support files inside
// [Options].Assets.
const (
	// AssetPiExtension is the pi launch extension.
	AssetPiExtension = "pi/outfitter-extension.js"
	// AssetPiOnboarding is the pi extension's onboarding support module.
	AssetPiOnboarding = "pi/pi-extension/privateCatalogOnboarding.js"
	// AssetPiPolicy is the pi extension's shared policy module.
	AssetPiPolicy = "pi/shared/privateCatalogPolicy.cjs"
)

// extensionPath is where an interactive launch writes the extension.
const extensionPath = "outfitter/outfitter-extension.js"

// FinishLaunch completes an interactive launch (§3.5; nothing happens for
// a non-interactive one): on first-run onboarding it merges
// "quietStartup": true into <root>/settings.json (through its link, so
// into the durable pi settings, under the lock of that file; a file that
// is not a JSON object is left alone, with the notice [QuietStartupSkipped]); when the assets hold the extension it
// writes the support files and the launch extension, stamped with the
// run's values ([PiRuntimeValues]), into the root's outfitter/ directory
// and puts --extension <root>/outfitter/outfitter-extension.js first; and
// when neither <root>/auth.json nor <root>/models.json holds configured
// entries it returns upstream's /login notice.
func (Pi) FinishLaunch(fsys FS, in *Input, c *Composite, plan *LaunchPlan) ([]string, error) {
	if NonInteractive(plan.Args) {
		return nil, nil
	}
	dir := c.Root
	var notices []string
	if in.Onboarding != nil {
		notice, err := quietStartup(fsys, vfs.Join(dir, "settings.json"))
		if err != nil {
			return nil, err
		}
		if notice != "" {
			notices = append(notices, notice)
		}
	}
	if hasAsset(in.Assets, AssetPiExtension) {
		ext := vfs.Join(dir, extensionPath)
		for _, a := range [][2]string{
			{AssetPiOnboarding, "outfitter/pi-extension/privateCatalogOnboarding.js"},
			{AssetPiPolicy, "outfitter/shared/privateCatalogPolicy.cjs"},
			{AssetPiExtension, extensionPath},
		} {
			data, err := readAsset(in.Assets, a[0])
			if err != nil {
				continue
			}
			if a[0] == AssetPiExtension {
				data = stampPiExtension(data, PiRuntimeValuesOf(in))
			}
			out := ext
			if a[1] != extensionPath {
				out = vfs.Join(dir, a[1])
			}
			if err := fsys.MkdirAll(path.Dir(out), 0o755); err != nil {
				return nil, &WriteError{Step: "create parent", Path: path.Dir(out), Err: err}
			}
			if err := fsys.WriteFile(out, data, 0o644); err != nil {
				return nil, &WriteError{Step: "write file", Path: out, Err: err}
			}
		}
		plan.Args = append(append(make([]string, 0, 2+len(plan.Args)), "--extension", ext), plan.Args...)
		plan.Setenv("PI_CODING_AGENT_DIR", dir)
	}
	configured, err := piLoginConfigured(fsys, dir)
	if err != nil {
		return nil, err
	}
	if configured {
		return notices, nil
	}
	return append(notices, PiLoginNotice), nil
}

// PiLoginNotice is what upstream prints before an interactive pi launch
// whose auth.json and models.json hold no configured entries.
const PiLoginNotice = "Outfitter will ask Pi to open `/login` automatically if Pi reports no available models after startup."

// quietStartup rewrites name as JSON2 of its object with "quietStartup":
// true, {} standing for a missing or empty file. It writes through a link,
// as upstream does, holding the lock of the file the link leads to
// ([vfs.LockFile]) from its read to its write, so a session that changes
// the settings meanwhile loses nothing; where the link leads (the durable
// settings source, outside the composite root) the write is durable
// ([vfs.ReplaceFile]), a file of the root itself is written plainly. A
// file that holds something other than a JSON object (not JSON, or an
// array) is the user's and is left as it is: the returned notice says so
// and the run goes on without quietStartup (upstream replaces it by
// {"quietStartup": true}).
func quietStartup(fsys FS, name string) (notice string, err error) {
	if unlock, ok := lockThrough(fsys, name); ok {
		defer func() {
			if uerr := unlock(); uerr != nil && err == nil {
				err = &WriteError{Step: "unlock", Path: name, Err: uerr}
			}
		}()
	}
	obj := resolve.NewObject()
	if data, err := resolve.ReadDocument(fsys, name); err == nil && len(bytes.TrimSpace(data)) > 0 {
		v, perr := jsstack.ParseJSON(data)
		o, ok := v.(*resolve.Object)
		if perr != nil || !ok {
			return fmt.Sprintf(QuietStartupSkipped, name), nil
		}
		obj = o
	}
	obj.Set("quietStartup", true)
	data := []byte(json2(obj))
	link, err := isLink(fsys, name)
	if err != nil {
		return "", &WriteError{Step: "write file", Path: name, Err: err}
	}
	if link {
		// A dangling link is written through below, as upstream does.
		if real, err := realPath(fsys, name); err == nil {
			perm, err := existingPerm(fsys, real, 0o644)
			if err == nil {
				err = writeDurable(fsys, real, data, perm)
			}
			if err != nil {
				return "", &WriteError{Step: "write file", Path: name, Err: err}
			}
			return "", nil
		}
	}
	if err := fsys.MkdirAll(path.Dir(name), 0o755); err != nil {
		return "", &WriteError{Step: "create parent", Path: path.Dir(name), Err: err}
	}
	if err := fsys.WriteFile(name, data, 0o644); err != nil {
		return "", &WriteError{Step: "write file", Path: name, Err: err}
	}
	return "", nil
}

// QuietStartupSkipped is the notice of a first-run onboarding whose pi
// settings file (%s) holds something other than a JSON object: the file is
// left as it is, without quietStartup.
const QuietStartupSkipped = "Pi settings file '%s' is not a JSON object; leaving it unchanged (quietStartup not set)."

// lockThrough takes the lock of the durable file that name leads to
// (through its links, a dangling final link included) for a
// read-modify-write, and returns its release; ok is false, and nothing is
// locked, on a file system without locks ([vfs.LockFS]) or where the
// file's directory does not exist yet (the write then fails as it would).
func lockThrough(fsys FS, name string) (unlock func() error, ok bool) {
	real := name
	for range vfs.MaxSymlinkHops {
		fi, err := vfs.Lstat(fsys, real)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			break
		}
		target, err := vfs.ReadLink(fsys, real)
		if err != nil {
			break
		}
		if !path.IsAbs(target) {
			target = path.Join(path.Dir(real), target)
		}
		real = target
	}
	if r, err := vfs.EvalSymlinks(fsys, path.Dir(real)); err == nil {
		real = vfs.Join(r, path.Base(real))
	}
	u, err := vfs.LockFile(fsys, real)
	if err != nil {
		return nil, false
	}
	return u.Unlock, true
}

// LoginStateError reports a pi login state file (auth.json, models.json)
// that exists but cannot be read.
type LoginStateError struct {
	// Path is the file.
	Path string
	// Err is the read error.
	Err error
}

// Error returns upstream's message.
func (e *LoginStateError) Error() string {
	return fmt.Sprintf("Could not read pi login state file '%s': Error: %v", e.Path, e.Err)
}

// Unwrap returns the read error.
func (e *LoginStateError) Unwrap() error { return e.Err }

// piLoginConfigured reports whether dir's auth.json or models.json holds
// configured entries, as upstream decides: a file that does not exist or
// is not JSON holds none; one that cannot be read is an error.
func piLoginConfigured(fsys FS, dir string) (bool, error) {
	for _, name := range []string{"auth.json", "models.json"} {
		p := vfs.Join(dir, name)
		if _, err := vfs.Stat(fsys, p); err != nil {
			continue
		}
		data, err := resolve.ReadDocument(fsys, p)
		if err != nil {
			return false, &LoginStateError{Path: p, Err: err}
		}
		v, err := jsstack.ParseJSON(data)
		if err != nil {
			continue
		}
		if configuredEntries(v) {
			return true, nil
		}
	}
	return false, nil
}

// configuredEntries is upstream's test of a login state value: a
// non-empty array; an object whose models, providers or model_providers
// members (those present) hold configured entries, or, without any of
// them, a non-empty object.
func configuredEntries(v any) bool {
	switch v := v.(type) {
	case []any:
		return len(v) > 0
	case *resolve.Object:
		present := false
		for _, k := range []string{"models", "providers", "model_providers"} {
			if inner, ok := v.Get(k); ok {
				present = true
				if configuredEntries(inner) {
					return true
				}
			}
		}
		return !present && v.Len() > 0
	}
	return false
}

// piExtensionSource maps a git extension source to its cache checkout.
func piExtensionSource(in *Input, e string) string {
	if c, ok := piCheckout(in.Cache, e); ok {
		return c.Dir
	}
	return e
}

// Checkouts returns the cache checkouts of the merged extensions that are
// git sources (§3.3): github:, git:, git+, https://, http://, ssh:// and
// git@ entries, not npm:, ., / or file: ones, recognized once the entry
// is trimmed, as upstream does.
func (Pi) Checkouts(in *Input) []Checkout {
	var out []Checkout
	seen := map[string]bool{}
	for _, e := range in.Controls().Extensions {
		if c, ok := piCheckout(in.Cache, e); ok && !seen[c.Dir] {
			seen[c.Dir] = true
			out = append(out, c)
		}
	}
	return out
}

// piCheckout parses a pi extension entry as a git source. The entry is
// trimmed to be recognized and parsed, while the cache directory's name
// is the first 16 hex digits of the SHA-256 of the entry as written, as
// upstream names it. ok is false for an entry that is not a git source,
// and when there is no cache directory.
func piCheckout(cache, e string) (Checkout, bool) {
	if cache == "" {
		return Checkout{}, false
	}
	trimmed := jsstack.Trim(e)
	for _, p := range []string{"npm:", ".", "/", "file:"} {
		if strings.HasPrefix(trimmed, p) {
			return Checkout{}, false
		}
	}
	c := Checkout{Source: e}
	src := trimmed
	// A '#' first leaves no source, which no case below takes, as the
	// whole entry would not: i > 0 (a mutant) is equivalent.
	if i := strings.LastIndexByte(src, '#'); i >= 0 {
		src, c.Ref, c.Pinned = src[:i], src[i+1:], true
	}
	withGit := func(s string) string {
		if strings.HasSuffix(s, ".git") {
			return s
		}
		return s + ".git"
	}
	switch {
	case strings.HasPrefix(src, "github:"):
		c.URL = withGit("https://github.com/" + strings.TrimPrefix(src, "github:"))
	case strings.HasPrefix(src, "git+"):
		c.URL = strings.TrimPrefix(src, "git+")
	case strings.HasPrefix(src, "git:"):
		c.URL = strings.TrimPrefix(src, "git:")
		if strings.HasPrefix(c.URL, "github.com/") {
			c.URL = withGit("https://" + c.URL)
		}
	case strings.HasPrefix(src, "https://"), strings.HasPrefix(src, "http://"), strings.HasPrefix(src, "ssh://"), strings.HasPrefix(src, "git@"):
		c.URL = src
	default:
		return Checkout{}, false
	}
	sum := sha256.Sum256([]byte(e))
	c.Dir = vfs.Join(cache, "extensions", "git", hex.EncodeToString(sum[:])[:16])
	return c, true
}

// Interactive reports whether args make an interactive pi session (see
// [NonInteractive]).
func (Pi) Interactive(args []string) bool { return !NonInteractive(args) }

// OnboardingSyncError returns upstream's error of a pi-native onboarding
// whose default profiles source failed to sync.
func (Pi) OnboardingSyncError(message string) error {
	return &OnboardingError{Message: message}
}

// OnboardingError is the failure of a first-run onboarding whose default
// profiles source could not be synced.
type OnboardingError struct {
	// Message is the sync's failure message.
	Message string
}

// Error returns upstream's message.
func (e *OnboardingError) Error() string {
	return "Cannot start Pi-native onboarding because the default profiles source failed to sync: " + e.Message +
		". Fix the network/git issue or run `outfitter setup` once the source is reachable."
}

// NonInteractive reports whether pi args make a non-interactive launch
// (§3.6): --print, -p, --export, --list-models or a json/print/rpc mode.
func NonInteractive(args []string) bool {
	for i, a := range args {
		switch a {
		case "--print", "-p", "--export", "--list-models":
			return true
		case "--mode":
			if i+1 < len(args) && isBatchMode(args[i+1]) {
				return true
			}
		}
		if v, ok := strings.CutPrefix(a, "--mode="); ok && isBatchMode(v) {
			return true
		}
	}
	return false
}

func isBatchMode(m string) bool { return m == "json" || m == "print" || m == "rpc" }

const deepworkEnv = "DEEPWORK_ADDITIONAL_JOBS_FOLDERS"

// deepworkJobs computes DEEPWORK_ADDITIONAL_JOBS_FOLDERS as upstream's
// createDeepWorkAdditionalJobsFolders does (agents/pi/PiAdapter.ts:449):
// the external value when allowed (the profile's own, else the process
// environment's), then the shared job roots holding a named job
// ([namedJobFolders]), then the job folders of the profile folders that
// hold a job (a directory with a job.yml file), each folder once; ok is
// false when there is none, and the variable is left as the profile set
// it. The error is for a job folder that cannot be read.
func deepworkJobs(in *Input, env []EnvVar) (string, bool, error) {
	var folders []string
	add := func(s string) {
		if s != "" && !slices.Contains(folders, s) {
			folders = append(folders, s)
		}
	}
	if allowExternalDeepworkJobs(in) {
		v, ok := (&LaunchPlan{Env: env}).Getenv(deepworkEnv)
		if !ok {
			v, _ = LookupEnv(in.Env, deepworkEnv)
		}
		for _, part := range strings.Split(v, ":") {
			add(part)
		}
	}
	for _, l := range in.Layers {
		for _, job := range l.Profile.Controls.DeepworkJobs {
			found, err := namedJobFolders(in.FS, l, job)
			if err != nil {
				return "", false, err
			}
			for _, f := range found {
				add(f)
			}
		}
	}
	for _, f := range in.ProfileFolders {
		for _, dir := range []string{vfs.Join(f, "deepwork", "jobs"), vfs.Join(f, "cli_specific", piID, "deepwork", "jobs")} {
			if _, err := vfs.Probe(in.FS, dir); errors.Is(err, fs.ErrNotExist) {
				continue // what ReadDir would say, without its error
			}
			list, err := vfs.ReadDir(in.FS, dir)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return "", false, &ReadError{Msg: fmt.Sprintf("Could not read profile DeepWork jobs folder '%s': %v", dir, err), Err: err}
			}
			for _, e := range list {
				if !e.IsDir() {
					continue
				}
				ok, err := isJobFile(in.FS, vfs.Join(dir, e.Name(), "job.yml"))
				if err != nil {
					return "", false, err
				}
				if ok {
					add(dir)
					break
				}
			}
		}
	}
	if len(folders) == 0 {
		return "", false, nil
	}
	return strings.Join(folders, ":"), true, nil
}

// deepworkJobRoots are the shared DeepWork job roots of a layer's profile
// source (upstream's sharedDeepWorkJobRootsForLayer,
// agents/pi/PiAdapter.ts:489): beside the source, in it, and in its
// .outfitter directory.
func deepworkJobRoots(l resolve.Layer) []string {
	if l.SourceRoot == "" {
		return nil
	}
	return []string{
		vfs.Join(path.Dir(l.SourceRoot), "deepwork", "jobs"),
		vfs.Join(l.SourceRoot, "deepwork", "jobs"),
		vfs.Join(l.SourceRoot, ".outfitter", "deepwork", "jobs"),
	}
}

// namedJobFolders returns the shared job roots of l that hold the named
// job: <root>/<job>/job.yml is a file (links followed).
func namedJobFolders(fsys vfs.FS, l resolve.Layer, job string) ([]string, error) {
	var out []string
	for _, root := range deepworkJobRoots(l) {
		ok, err := isJobFile(fsys, vfs.Join(root, job, "job.yml"))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, root)
		}
	}
	return out, nil
}

// missingJobWarnings warns, per layer, about each named DeepWork job that
// none of the layer's shared job roots holds (upstream's
// createMissingNamedDeepWorkJobWarnings, agents/pi/PiAdapter.ts:480).
func missingJobWarnings(in *Input) ([]string, error) {
	var warnings []string
	for _, l := range in.Layers {
		for _, job := range l.Profile.Controls.DeepworkJobs {
			found, err := namedJobFolders(in.FS, l, job)
			if err != nil {
				return nil, err
			}
			if len(found) == 0 {
				warnings = append(warnings, fmt.Sprintf("pi adapter could not find DeepWork job '%s' for profile '%s'.", job, l.ID))
			}
		}
	}
	return warnings, nil
}

// isJobFile reports whether name is a regular file, links followed, as
// upstream's isFile in agents/pi/PiAdapter.ts does: a missing name is not one, and any other
// failure to look is an error naming the file.
func isJobFile(fsys vfs.FS, name string) (bool, error) {
	fi, err := vfs.Stat(fsys, name)
	switch {
	case err == nil:
		return fi.Mode().IsRegular(), nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, &ReadError{Msg: fmt.Sprintf("Could not inspect file '%s': %v", name, err), Err: err}
}

// allowExternalDeepworkJobs reports whether the controls merged for pi set
// allow_external_deepwork_jobs (or allowExternalDeepWorkJobs) to true, the
// pi block's value winning over the generic one, as upstream reads them.
func allowExternalDeepworkJobs(in *Input) bool {
	generic := in.profileControls()
	var block *resolve.Object
	if b := generic.Agent(piID); b != nil {
		block = b.Object
	}
	merged := func(key string) any {
		if v, ok := block.Get(key); ok {
			return v
		}
		v, _ := generic.Object.Get(key)
		return v
	}
	return merged("allow_external_deepwork_jobs") == true || merged("allowExternalDeepWorkJobs") == true
}
