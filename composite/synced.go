package composite

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/internal/jsstack"

	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// syncedCheckouts returns the checkouts ([resolve.Layer.Checkout]) of the
// layers that arrived by sync and declare, in their generic controls or
// in the block of the input's agent, a value that declares reports; nil
// when no layer declares it or a layer of the user's own declares it too
// (the value is then the user's).
func (in *Input) syncedCheckouts(declares func(c *resolve.Controls) bool) []string {
	var out []string
	for _, l := range in.Layers {
		if l.Profile == nil {
			continue
		}
		c := &l.Profile.Controls
		if !declares(c) && (c.Agent(in.Agent) == nil || !declares(c.Agent(in.Agent))) {
			continue
		}
		checkout := l.Checkout(in.Home)
		if checkout == "" {
			return nil
		}
		if !slices.Contains(out, checkout) {
			out = append(out, checkout)
		}
	}
	return out
}

// syncedPath applies the rule of synced content ([resolve.Confine]) to a
// path a profile declares for the agent to read (what, as a warning
// names it: "skill", "extension"): name is the path as written, resolved
// the path the agent will open (relative to the working directory when
// not absolute), and declares tells the layers that declare it. It
// returns "" when the path may be passed on (the user's own, or inside
// the checkout of a synced profile declaring it or inside the project,
// as a repo_file include may be, links resolved), else the warning that
// leaves it out, naming the checkout.
func (in *Input) syncedPath(what, name, resolved string, declares func(c *resolve.Controls) bool) string {
	checkouts := in.syncedCheckouts(declares)
	if checkouts == nil {
		return ""
	}
	if !path.IsAbs(resolved) {
		resolved = vfs.Join(in.cwd(), resolved)
	}
	if in.Project != "" {
		checkouts = append(checkouts, in.Project)
	}
	var err error
	for _, c := range slices.Backward(checkouts) {
		if err = resolve.Confine(in.FS, resolved, c); err == nil {
			return ""
		}
	}
	return fmt.Sprintf("%s %s '%s' of a synced profile is left out: %s.", in.Agent, what, resolve.Quote(name), err)
}

// sessionDirectory returns the session_directory of the merged controls
// m that the agent is given, and a warning when it is not used: a value
// that only synced profiles declare decides where the agent writes its
// sessions, which synced content never chooses (as a synced settings file
// sets no cache_directory), inside its checkout or out of it. The agent
// then keeps its sessions where it would without one (Claude's projects/
// in its profile-owned or native source, pi's in the composite).
func (in *Input) sessionDirectory(m Controls) (*string, string) {
	if m.SessionDirectory == nil {
		return nil, ""
	}
	v := *m.SessionDirectory
	if in.syncedCheckouts(func(c *resolve.Controls) bool { return c.SessionDirectory != nil && *c.SessionDirectory == v }) == nil {
		return m.SessionDirectory, ""
	}
	return nil, fmt.Sprintf("%s session_directory '%s' of a synced profile is not used: synced content does not choose where the agent writes.", in.Agent, resolve.Quote(v))
}

// syncedExtension applies the rule of synced content to an extension
// entry (pi's --extension, Claude's --plugin-dir) that is a path, not an
// npm or git source (which pi fetches): declared by synced profiles only,
// it must lie in their checkout or the project, links resolved
// ([Input.syncedPath]); it returns the warning that leaves it out, or "".
// A file: entry names the path after the prefix.
func syncedExtension(in *Input, e string) string {
	id := extensionIdentity(e, in.cwd())
	if strings.HasPrefix(id, "npm:") || strings.HasPrefix(id, "git:") {
		return ""
	}
	name := jsstack.Trim(e)
	if rest, ok := strings.CutPrefix(name, "file://"); ok {
		name = rest
	} else {
		name = strings.TrimPrefix(name, "file:")
	}
	return in.syncedPath("extension", e, name, func(c *resolve.Controls) bool {
		return slices.ContainsFunc(c.Extensions, func(x string) bool { return extensionIdentity(x, in.cwd()) == id })
	})
}
