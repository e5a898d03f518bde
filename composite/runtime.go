package composite

import (
	"bytes"
	"strconv"

	"github.com/outfitter-go/vfsim/internal/jsstack"
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
	if text, err := readAssetText(in.Assets, AssetASCIIArt); err == nil {
		v.ASCIIArt = jsstack.TrimEnd(text)
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
	// The values' JSON, in the order of the names below, encoded into
	// one buffer that ends[i] splits.
	var ends [9]int
	// A capacity only: mutants of this sum are equivalent.
	buf := make([]byte, 0, 2*(len(v.Home)+len(v.Project)+len(v.DefaultProfilesPath)+len(v.SetupSourceURI)+len(v.ProfileID)+len(v.ASCIIArt))+len(defaultSettingsTemplateJSON)+64)
	buf = resolve.AppendStringify(buf, v.Home, "")
	ends[0] = len(buf)
	buf = resolve.AppendStringify(buf, v.Project, "")
	ends[1] = len(buf)
	buf = appendOptional(buf, v.DefaultProfilesPath)
	ends[2] = len(buf)
	buf = appendOptional(buf, v.SetupSourceURI)
	ends[3] = len(buf)
	buf = strconv.AppendBool(buf, v.AutoOpen)
	ends[4] = len(buf)
	if v.ProfileID == "" {
		buf = append(buf, "undefined"...)
	} else {
		// JSON.stringify of {id, label}.
		buf = append(buf, `{"id":`...)
		buf = resolve.AppendStringify(buf, v.ProfileID, "")
		if v.ProfileLabel != nil {
			buf = append(buf, `,"label":`...)
			buf = resolve.AppendStringify(buf, *v.ProfileLabel, "")
		}
		buf = append(buf, '}')
	}
	ends[5] = len(buf)
	buf = append(buf, defaultSettingsTemplateJSON...)
	ends[6] = len(buf)
	buf = strconv.AppendBool(buf, v.StartupASCIIArt)
	ends[7] = len(buf)
	buf = resolve.AppendStringify(buf, v.ASCIIArt, "")
	ends[8] = len(buf)
	// Each replacement copies the text into the other of two buffers, which
	// share one allocation: a stamped text is at most len(src)+len(buf)
	// long, since the values are.
	size := len(src) + len(buf)
	var pair []byte
	cur, next := src, []byte(nil)
	start := 0
	for i, name := range piPlaceholders {
		val := buf[start:ends[i]]
		start = ends[i]
		j := bytes.Index(cur, name)
		if j < 0 {
			continue
		}
		if next == nil {
			if pair == nil {
				pair = make([]byte, 2*size)
				next = pair[:0:size]
			} else {
				next = pair[size : size : 2*size]
			}
		}
		next = append(append(append(next[:0], cur[:j]...), val...), cur[j+len(name):]...)
		if &cur[0] == &src[0] {
			cur = nil // src is the caller's: never written
		}
		cur, next = next, cur
	}
	return cur
}

// piPlaceholders are the string literals stampPiExtension replaces, in
// order; read only.
var piPlaceholders = [...][]byte{
	[]byte(`"__OUTFITTER_HOME__"`),
	[]byte(`"__OUTFITTER_PROJECT__"`),
	[]byte(`"__OUTFITTER_DEFAULT_PROFILES_PATH__"`),
	[]byte(`"__OUTFITTER_SETUP_SOURCE_URI__"`),
	[]byte(`"__OUTFITTER_AUTO_OPEN__"`),
	[]byte(`"__OUTFITTER_ACTIVE_PROFILE__"`),
	[]byte(`"__OUTFITTER_DEFAULT_SETTINGS_TEMPLATE__"`),
	[]byte(`"__OUTFITTER_STARTUP_ASCII_ART__"`),
	[]byte(`"__OUTFITTER_ASCII_ART__"`),
}

// appendOptional appends the JSON of s, or undefined for "".
func appendOptional(buf []byte, s string) []byte {
	if s == "" {
		return append(buf, "undefined"...)
	}
	return resolve.AppendStringify(buf, s, "")
}
