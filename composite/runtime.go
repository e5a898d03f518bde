package composite

import (
	"bytes"
	"strings"

	"github.com/outfitter-go/vfsim/resolve"
)

// Onboarding is a first-run onboarding launch: there were no settings
// yet, so the run uses the bootstrap profile, and the agent opens
// Outfitter's own onboarding once it has started.
type Onboarding struct {
	// DefaultProfilesPath is the directory of the synced default
	// profiles, offered to the user.
	DefaultProfilesPath string
	// SetupSourceURI is the setup source the user named, "" when none.
	SetupSourceURI string
}

// AssetASCIIArt is Outfitter's startup art inside [Options].Assets; the
// pi launch extension shows it.
const AssetASCIIArt = "outfitter-ascii.txt"

// PiRuntimeValues are the launch-time values upstream stamps into the pi
// launch extension: each replaces the first "__<NAME>__" string literal
// of the extension's source by its JSON ([StampPiExtension]).
type PiRuntimeValues struct {
	// Home is OUTFITTER_HOME, the home directory.
	Home string
	// Project is OUTFITTER_PROJECT: the project directory on onboarding,
	// else the process working directory ([Input].Cwd).
	Project string
	// DefaultProfilesPath is OUTFITTER_DEFAULT_PROFILES_PATH; "" stamps
	// undefined.
	DefaultProfilesPath string
	// SetupSourceURI is OUTFITTER_SETUP_SOURCE_URI; "" stamps undefined.
	SetupSourceURI string
	// AutoOpen is OUTFITTER_AUTO_OPEN: true on onboarding.
	AutoOpen bool
	// ProfileID and ProfileLabel are OUTFITTER_ACTIVE_PROFILE, {id,
	// label} (label left out when nil).
	ProfileID    string
	ProfileLabel *string
	// StartupASCIIArt is OUTFITTER_STARTUP_ASCII_ART, the settings'
	// startup.ascii_art (true when unset).
	StartupASCIIArt bool
	// ASCIIArt is OUTFITTER_ASCII_ART, the art without trailing white
	// space.
	ASCIIArt string
}

// PiRuntimeValuesOf returns the runtime values of a launch.
func PiRuntimeValuesOf(in *Input) PiRuntimeValues {
	v := PiRuntimeValues{Home: in.Home, Project: in.cwd(), StartupASCIIArt: true}
	if in.Onboarding != nil {
		v.Project = in.Project
		v.DefaultProfilesPath = in.Onboarding.DefaultProfilesPath
		v.SetupSourceURI = in.Onboarding.SetupSourceURI
		v.AutoOpen = true
	}
	if in.Profile != nil {
		v.ProfileID, v.ProfileLabel = in.Profile.ID, in.Profile.Label
	}
	if a := in.Settings.Startup.ASCIIArt; a != nil {
		v.StartupASCIIArt = *a
	}
	if data, err := readAsset(in.Assets, AssetASCIIArt); err == nil {
		v.ASCIIArt = strings.TrimRightFunc(string(data), isJSSpace)
	}
	return v
}

// DefaultSettingsTemplate is OUTFITTER_DEFAULT_SETTINGS_TEMPLATE: the
// settings.yml upstream's setup writes, with __OUTFITTER_PROFILE_ID__
// where the chosen profile goes.
const DefaultSettingsTemplate = "default_profile: __OUTFITTER_PROFILE_ID__\n" +
	"profile_sources:\n" +
	"  - github: ai-outfitter/default-profiles\n" +
	"    path: profiles\n" +
	"  - path: ./profiles\n"

// StampPiExtension returns the extension's source with the runtime
// values stamped in, in upstream's order: for each value, the first
// "__<NAME>__" literal (double quotes included) becomes the value's JSON,
// or undefined for an absent one; a name without a literal is skipped.
func StampPiExtension(src string, v PiRuntimeValues) string {
	return string(stampPiExtension([]byte(src), v))
}

// defaultSettingsTemplateJSON is [DefaultSettingsTemplate] as JSON.
var defaultSettingsTemplateJSON = string(resolve.Stringify(DefaultSettingsTemplate, ""))

// stampPiExtension is [StampPiExtension] on bytes: each replacement
// copies the text into the other of two buffers instead of a new string.
func stampPiExtension(src []byte, v PiRuntimeValues) []byte {
	str := func(s string) string { return string(resolve.Stringify(s, "")) }
	opt := func(s string) string {
		if s == "" {
			return "undefined"
		}
		return str(s)
	}
	profile := "undefined"
	if v.ProfileID != "" {
		o := resolve.NewObject()
		o.Set("id", v.ProfileID)
		if v.ProfileLabel != nil {
			o.Set("label", *v.ProfileLabel)
		}
		profile = string(resolve.Stringify(o, ""))
	}
	cur, next := src, []byte(nil)
	for _, kv := range [...][2]string{
		{`"__OUTFITTER_HOME__"`, str(v.Home)},
		{`"__OUTFITTER_PROJECT__"`, str(v.Project)},
		{`"__OUTFITTER_DEFAULT_PROFILES_PATH__"`, opt(v.DefaultProfilesPath)},
		{`"__OUTFITTER_SETUP_SOURCE_URI__"`, opt(v.SetupSourceURI)},
		{`"__OUTFITTER_AUTO_OPEN__"`, string(resolve.Stringify(v.AutoOpen, ""))},
		{`"__OUTFITTER_ACTIVE_PROFILE__"`, profile},
		{`"__OUTFITTER_DEFAULT_SETTINGS_TEMPLATE__"`, defaultSettingsTemplateJSON},
		{`"__OUTFITTER_STARTUP_ASCII_ART__"`, string(resolve.Stringify(v.StartupASCIIArt, ""))},
		{`"__OUTFITTER_ASCII_ART__"`, str(v.ASCIIArt)},
	} {
		i := bytes.Index(cur, []byte(kv[0]))
		if i < 0 {
			continue
		}
		if next == nil {
			next = make([]byte, 0, len(src)+1024)
		}
		next = append(append(append(next[:0], cur[:i]...), kv[1]...), cur[i+len(kv[0]):]...)
		if &cur[0] == &src[0] {
			cur = nil // src is the caller's: never written
		}
		cur, next = next, cur
	}
	return cur
}
