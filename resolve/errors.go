package resolve

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Issue is one problem found in a settings file, a profile source, a
// profile document or an inheritance stack. File names the file (or the
// source directory, or "remote_settings[<i>]"); Pointer is a JSON pointer
// into it, or, for resolution issues, a pointer like "/profiles/<id>".
// Err, when set, is the typed condition ([*CycleError], [*NotFoundError],
// [*RemotePathError]).
type Issue struct {
	File    string
	Pointer string
	Message string
	Err     error
}

// Path renders the issue's location as upstream does: "<file>#<pointer>",
// or whichever of the two is set.
func (i *Issue) Path() string {
	switch {
	case i.File == "":
		return i.Pointer
	case i.Pointer == "":
		return i.File
	}
	return i.File + "#" + i.Pointer
}

// Error returns "<path> <message>".
func (i *Issue) Error() string { return issuesText([]*Issue{i}) }

// writeTo writes Error's text to b. A clean file and pointer are written
// as they are, without the joined path: both clean, their join is clean
// and Quote returns it unchanged.
func (i *Issue) writeTo(b *strings.Builder) {
	if hasControl(i.File, false) || hasControl(i.Pointer, false) {
		b.WriteString(Quote(i.Path()))
	} else {
		b.WriteString(i.File)
		if i.File != "" && i.Pointer != "" {
			b.WriteByte('#')
		}
		b.WriteString(i.Pointer)
	}
	b.WriteByte(' ')
	b.WriteString(QuoteText(i.Message))
}

// Unwrap returns the typed condition, if any.
func (i *Issue) Unwrap() error { return i.Err }

// issuesText returns the head's parts then the issues' texts joined by
// "; ", built in one string: an error's message is made each time it is
// shown, and so costs one allocation when nothing needs quoting.
func issuesText(issues []*Issue, head ...string) string {
	n := 0
	for _, h := range head {
		n += len(h)
	}
	for _, i := range issues {
		n += len(i.File) + len(i.Pointer) + len(i.Message) + 4
	}
	var b strings.Builder
	b.Grow(n)
	for _, h := range head {
		b.WriteString(h)
	}
	for k, i := range issues {
		if k > 0 {
			b.WriteString("; ")
		}
		i.writeTo(&b)
	}
	return b.String()
}

func issueErrors(issues []*Issue) []error {
	errs := make([]error, len(issues))
	for n, i := range issues {
		errs[n] = i
	}
	return errs
}

// SettingsError reports invalid settings files; Issues holds every problem
// in upstream's order.
type SettingsError struct {
	Issues []*Issue
}

func (e *SettingsError) Error() string {
	return issuesText(e.Issues, "Cannot run with invalid settings: ")
}

// Unwrap returns the issues.
func (e *SettingsError) Unwrap() []error { return issueErrors(e.Issues) }

// ProfilesError reports problems loading the configured profile sources.
type ProfilesError struct {
	Issues []*Issue
}

func (e *ProfilesError) Error() string {
	return issuesText(e.Issues, "Cannot run with invalid profiles: ")
}

// Unwrap returns the issues.
func (e *ProfilesError) Unwrap() []error { return issueErrors(e.Issues) }

// ResolveError reports problems building the inheritance stack of ID:
// cycles and missing profiles, every one in traversal order.
type ResolveError struct {
	ID     string
	Issues []*Issue
}

func (e *ResolveError) Error() string {
	return issuesText(e.Issues, "Cannot resolve profile '", e.ID, "': ")
}

// Unwrap returns the issues.
func (e *ResolveError) Unwrap() []error { return issueErrors(e.Issues) }

// CycleError is an inheritance cycle; Chain ends with the repeated id.
type CycleError struct {
	Chain []string
}

func (e *CycleError) Error() string {
	return "Profile inheritance cycle detected: " + strings.Join(e.Chain, " -> ")
}

// InheritanceLimitError reports an inheritance walk stopped early: the
// graph of the selected profile ID has so many paths through cycles or
// missing profiles that listing each problem once per path, as upstream
// does, would not end in reasonable time. Issues is the number of
// problems listed before it.
type InheritanceLimitError struct {
	ID     string
	Issues int
}

func (e *InheritanceLimitError) Error() string {
	return fmt.Sprintf("inheritance of profile '%s' has too many broken paths to list: stopped after %d issues", e.ID, e.Issues)
}

// NotFoundError reports a selected or inherited profile id that no source
// defines.
type NotFoundError struct {
	ID string
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("Profile '%s' was not found.", e.ID) }

// TemplateError reports the selection of a template profile.
type TemplateError struct {
	ID string
}

func (e *TemplateError) Error() string {
	return fmt.Sprintf("Profile '%s' is a template profile and must be inherited by a runnable profile.", e.ID)
}

// AgentError reports an agent id that names none of the known agents.
type AgentError struct {
	// Agent is the requested id.
	Agent string
	// Known are the ids of the known agents, in order.
	Known []string
}

func (e *AgentError) Error() string {
	return fmt.Sprintf("Unknown agent '%s'. Expected one of: %s.", e.Agent, strings.Join(e.Known, ", "))
}

// RemotePathError reports an unsafe repository-relative path of a remote
// settings file or remote profile source. Absolute is true for an absolute
// path, false for one escaping the repository.
type RemotePathError struct {
	Path     string
	Absolute bool
}

func (e *RemotePathError) Error() string {
	if e.Absolute {
		return fmt.Sprintf("Remote repository path '%s' must be relative.", e.Path)
	}
	return fmt.Sprintf("Remote repository path '%s' must stay inside the repository.", e.Path)
}

// ErrNoProfile reports that neither an explicit profile id nor
// default_profile selects a profile.
var ErrNoProfile = errors.New("Cannot run without a selected profile or default_profile in settings.yml; pass --profile or run `outfitter setup`.")

// OptionError reports an option of a call that cannot be used as given,
// most often one left at its zero value: Option names it as a caller
// writes it ("resolve.Options.Agents"), Problem says what is wrong with
// it and Fix what to give instead. The packages above resolve report
// their own options with it too.
type OptionError struct {
	// Option is the option's qualified name.
	Option string
	// Problem is what is wrong with the value given.
	Problem string
	// Fix says what to give instead.
	Fix string
}

func (e *OptionError) Error() string {
	return e.Option + " " + e.Problem + ": " + e.Fix + "."
}

// CheckDir returns an [*OptionError] for option (a directory given as a
// path of the file system, such as a home or a project directory) when
// dir is not an absolute path, and nil when it is; what says what the
// directory is for, the fix the error suggests.
func CheckDir(option, dir, what string) error {
	if path.IsAbs(dir) {
		return nil
	}
	return &OptionError{Option: option, Problem: fmt.Sprintf("is %q, not an absolute path", dir), Fix: "give " + what}
}

// check reports the options Load cannot work with, before it reads
// anything.
func (o Options) check() error {
	if o.Agents == nil {
		return &OptionError{
			Option:  "resolve.Options.Agents",
			Problem: "is nil, so no agent is known and no profile can be validated",
			Fix:     "give the agents profiles may configure: composite.DefaultRegistry().Agents() for pi and Claude, or the Agents() of a composite.Registry of your own",
		}
	}
	if err := CheckDir("resolve.Options.Home", o.Home, "the home directory, whose .outfitter/settings.yml is read (os.UserHomeDir() on the host)"); err != nil {
		return err
	}
	return CheckDir("resolve.Options.Project", o.Project, "the project directory, whose .outfitter/settings.yml is read (the working directory on the host)")
}
