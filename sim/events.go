package sim

import (
	"context"

	"github.com/outfitter-go/vfsim/resolve"
)

// EventKind says what an [Event] reports and where upstream prints it.
type EventKind string

// The kinds of events a run reports to its [Observer], in the order they
// can come: notices and warnings before the launch, the summary, then
// refreshes while the agent runs, and notices and warnings after it
// exits.
const (
	// EventNotice is a line upstream prints on standard output that is not
	// a warning: the --debug notice, the progress of fetching sources
	// ("outfitter: caching extension …"), the /login notice of an
	// unconfigured pi, and the confirmations of prompt answers.
	EventNotice EventKind = "notice"
	// EventWarning is a warning, printed on standard error: the
	// pre-launch warnings just before the composite is written, the
	// state-write warnings after the agent exits. Every one is in
	// [Result].Warnings; under --strict there are none, the run fails.
	EventWarning EventKind = "warning"
	// EventMessage is a line upstream prints on standard error that is
	// not a warning and that --strict does not turn into a failure: the
	// copy-fallback notices of a file system without links, the failures
	// of a live refresh, and the messages of the system-prompt export.
	EventMessage EventKind = "message"
	// EventSummary is the launch summary, printed on standard output just
	// before the agent starts; [Event].Summary holds it.
	EventSummary EventKind = "summary"
	// EventRefresh reports a live refresh that rewrote the composite's
	// generated files while the agent ran; [Event].Files lists them.
	// Upstream prints nothing for it.
	EventRefresh EventKind = "refresh"
)

// Stderr reports whether upstream prints the kind's lines on standard
// error (warnings and messages) rather than standard output.
func (k EventKind) Stderr() bool { return k == EventWarning || k == EventMessage }

// Event is one thing a run reports while it happens.
type Event struct {
	// Kind says what the event is.
	Kind EventKind
	// Text is the line as upstream prints it, without colour, for
	// notices, warnings and messages; for a summary, its lines joined by
	// newlines.
	Text string
	// Summary is the launch summary, for [EventSummary].
	Summary *LaunchSummary
	// Files are the relative paths of the generated files a refresh
	// wrote, for [EventRefresh].
	Files []string
}

// An Observer receives a run's events as they happen, on the goroutine
// of [Execute], except the refresh events of a live watch, which come
// from the watch's goroutine; Execute does not wait for an observer
// otherwise than by calling it, so an observer that blocks holds the run
// up. ctx is the run's.
type Observer interface {
	Observe(ctx context.Context, e Event)
}

// ObserverFunc adapts a function to [Observer].
type ObserverFunc func(ctx context.Context, e Event)

// Observe calls f.
func (f ObserverFunc) Observe(ctx context.Context, e Event) { f(ctx, e) }

// LaunchSummary is what upstream prints before the agent starts
// (run/RunLaunchSummary.ts): the selected profile, each contributing
// profile definition with where it comes from, the model, the composite
// root and the agent.
type LaunchSummary struct {
	// ProfileID is the selected profile.
	ProfileID string
	// Layers are the contributing profile definitions, lowest precedence
	// first.
	Layers []SummaryLayer
	// Model is the model the agent is given (its own block's model, else
	// the generic one); "" when none.
	Model string
	// Root is the composite root.
	Root string
	// Agent is the agent's id.
	Agent string
}

// SummaryLayer is one profile definition of a [LaunchSummary].
type SummaryLayer struct {
	// ID is the definition's profile id.
	ID string
	// Source says where it comes from: the folder of a local definition,
	// or the remote source as github:<repo> or its URI with credentials
	// redacted, followed by @<ref> and /<path> when the source has them.
	Source string
}

// Lines returns the summary's lines as upstream prints them, without the
// colours.
func (s *LaunchSummary) Lines() []string {
	lines := []string{"→ resolving profile " + s.ProfileID}
	for _, l := range s.Layers {
		lines = append(lines, "✓ profile layer "+l.ID+"  "+l.Source)
	}
	merged := "✓ merged controls"
	if s.Model != "" {
		merged += "  model=" + s.Model
	}
	return append(lines, merged, "✓ prepared composite profile  "+s.Root, "↳ launching "+s.Agent+" …")
}

// SummaryOf returns the launch summary of a resolved run whose composite
// root is root.
func SummaryOf(res *resolve.Result, root string) *LaunchSummary {
	s := &LaunchSummary{ProfileID: res.ProfileID, Root: root, Agent: res.AgentID}
	for _, l := range res.Layers {
		s.Layers = append(s.Layers, SummaryLayer{ID: l.ID, Source: layerSource(l)})
	}
	if p := res.Profile; p != nil {
		if b := p.Controls.Agent(res.AgentID); b != nil && b.Model != nil {
			s.Model = *b.Model
		} else if p.Controls.Model != nil {
			s.Model = *p.Controls.Model
		}
	}
	return s
}

// layerSource formats where a profile definition comes from, as the
// summary names it.
func layerSource(l resolve.Layer) string {
	src := l.Source
	var out string
	switch {
	case src.GitHub != "":
		out = "github:" + src.GitHub
	case src.URI != "":
		out = resolve.RedactURI(src.URI)
	default:
		return l.FolderPath
	}
	if src.Ref != "" {
		out += "@" + src.Ref
	}
	if src.Path != "" {
		out += "/" + src.Path
	}
	return out
}
