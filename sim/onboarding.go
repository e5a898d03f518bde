package sim

import (
	"path"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/sim/sources"
	"github.com/outfitter-go/vfsim/vfs"
)

// BootstrapProfileID is the profile of a first-run onboarding launch.
const BootstrapProfileID = "outfitter-bootstrap"

// DefaultProfilesSource is the catalog a first-run onboarding syncs and
// offers: github ai-outfitter/default-profiles, path profiles.
var DefaultProfilesSource = resolve.Source{GitHub: "ai-outfitter/default-profiles", Path: "profiles"}

// onboarding decides, as upstream does before anything else, whether the
// run is a first-run onboarding: no <home>/.outfitter/settings.yml (or
// [Spec].ForceOnboarding), no --profile, an agent that onboards
// ([composite.Onboarder]: --agent, else the registry's default agent; the
// settings are not read) with interactive arguments, an interactive
// session, and tools to sync with ([Options].Tools). It then syncs the
// default profiles; a failed sync fails the run with the agent's error.
func (x *execution) onboarding() (*composite.Onboarding, composite.Onboarder, error) {
	spec := x.spec
	if !spec.ForceOnboarding {
		if _, err := vfs.Stat(x.fsys, resolve.UserSettingsPath(spec.Home)); err == nil {
			return nil, nil, nil
		}
	}
	if spec.Profile != "" || !spec.Interactive || x.opts.Tools == nil {
		return nil, nil, nil
	}
	registry := x.opts.registry()
	agent := spec.Agent
	if agent == "" {
		agent = registry.IDs()[0]
	}
	a, err := registry.Lookup(agent)
	if err != nil {
		return nil, nil, nil // the run reports the unknown agent
	}
	onb, ok := a.(composite.Onboarder)
	if !ok || !onb.Interactive(spec.Args) {
		return nil, nil, nil
	}
	r := sources.SyncSource(x.ctx, x.fsys, sources.Options{
		Home: spec.Home, Project: spec.Project, Agents: registry.Agents(), Runner: x.opts.Tools,
		Progress: func(line string) { x.emit(EventNotice, line) },
	}, DefaultProfilesSource)
	if r.Status == sources.StatusFailed {
		return nil, nil, onb.OnboardingSyncError(r.Message)
	}
	return &composite.Onboarding{DefaultProfilesPath: path.Join(r.CacheDir, DefaultProfilesSource.Path), SetupSourceURI: spec.SetupSource}, onb, nil
}

// bootstrapResult is the resolution of a first-run onboarding run: the
// bootstrap profile with empty controls, no profile folders or layers,
// empty settings and the cache in <home>/.outfitter/cache.
func bootstrapResult(spec Spec, agent string) *resolve.Result {
	label := "Outfitter Bootstrap"
	desc := "Temporary first-run profile that starts Pi before Outfitter settings exist."
	p := &resolve.Profile{ID: BootstrapProfileID, Label: &label, Description: &desc, Inherits: []string{}}
	settings := resolve.Settings{
		ProfileSources: []resolve.Source{}, RemoteSettings: []resolve.RemoteSettings{}, CustomSettings: resolve.NewObject(),
	}
	return &resolve.Result{
		Home: spec.Home, Project: spec.Project, ProfileID: BootstrapProfileID, AgentID: agent,
		Settings:       settings,
		SettingsPaths:  []string{},
		CacheDirectory: settings.Cache(spec.Home),
		Sources:        []resolve.SourceDir{},
		Profile:        p,
		Stack:          []*resolve.Profile{p},
		ProfilePaths:   []string{},
		ProfileFolders: []string{},
	}
}
