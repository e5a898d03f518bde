package main

import (
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/fixtures/report"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// namer writes a machine path for a person: fixture roots and the
// composite root as tokens, or the home and project of a dry run.
type namer func(string) string

// prefixNamer names paths below the given roots by their tokens, the
// longest root first.
func prefixNamer(roots map[string]string) namer {
	keys := slices.SortedFunc(maps.Keys(roots), func(a, b string) int { return len(b) - len(a) })
	return func(p string) string {
		for _, root := range keys {
			if p == root {
				return roots[root]
			}
			if rest, ok := strings.CutPrefix(p, root+"/"); ok && root != "" {
				return roots[root] + "/" + rest
			}
		}
		return p
	}
}

// provenance says where the parts of one run's composite come from: which
// profile definition (and source) a state path's source or a generated
// file's inputs belong to, and which definition set a state path's
// strategy.
type provenance struct {
	res  *resolve.Result
	plan *composite.Composite
	name namer
}

// layerOf returns the profile definition whose folder or file holds p.
func (pv provenance) layerOf(p string) (resolve.Layer, bool) {
	if pv.res == nil {
		return resolve.Layer{}, false
	}
	for _, l := range slices.Backward(pv.res.Layers) {
		if p == l.ProfilePath || l.ResourceRoot != "" && (p == l.ResourceRoot || strings.HasPrefix(p, l.ResourceRoot+"/")) {
			return l, true
		}
	}
	return resolve.Layer{}, false
}

// describeLayer names a profile definition: its id and the source it was
// loaded from.
func (pv provenance) describeLayer(l resolve.Layer) string {
	return "profile " + l.ID + " from " + pv.describeSource(l)
}

func (pv provenance) describeSource(l resolve.Layer) string {
	switch s := l.Source; {
	case s.GitHub != "":
		return "github " + s.GitHub + refSuffix(s.Ref)
	case s.URI != "":
		return s.URI + refSuffix(s.Ref)
	}
	return pv.name(l.SourceRoot)
}

func refSuffix(ref string) string {
	if ref == "" {
		return ""
	}
	return "@" + ref
}

// describeSourcePath says where a state path's durable source comes from.
func (pv provenance) describeSourcePath(sp composite.StatePath) string {
	switch sp.Origin {
	case composite.SourceProfile:
		if l, ok := pv.layerOf(sp.SourcePath); ok {
			return pv.describeLayer(l)
		}
		return "a profile folder"
	case composite.SourceAdapter:
		if pv.res != nil && (sp.SourcePath == pv.res.CacheDirectory || strings.HasPrefix(sp.SourcePath, pv.res.CacheDirectory+"/")) {
			return "the cache directory"
		}
		return "the adapter's own rule (session_directory for Claude's projects/)"
	}
	return "the agent's native state"
}

// strategySetter returns the profile definition whose state_persistence
// sets key (the last in merge order), if any.
func (pv provenance) strategySetter(key string) (resolve.Layer, bool) {
	if pv.res == nil {
		return resolve.Layer{}, false
	}
	for _, l := range slices.Backward(pv.res.Layers) {
		if l.Profile != nil && l.Profile.StatePersistence != nil && l.Profile.StatePersistence.Has(key) {
			return l, true
		}
	}
	return resolve.Layer{}, false
}

// statePath returns the state path an entry of the composite is, if any.
func (pv provenance) statePath(rel string) (composite.StatePath, bool) {
	if pv.plan == nil {
		return composite.StatePath{}, false
	}
	for _, sp := range pv.plan.StatePaths {
		if !sp.IsUnknown() && sp.Name() == rel {
			return sp, true
		}
	}
	return composite.StatePath{}, false
}

// file returns the generated file at rel, if any.
func (pv provenance) file(rel string) (composite.File, bool) {
	if pv.plan == nil {
		return composite.File{}, false
	}
	for _, f := range pv.plan.Files {
		if f.RelativePath == rel {
			return f, true
		}
	}
	return composite.File{}, false
}

// annotate returns the annotation of a composite entry: its kind, and for
// a state path its strategy and the origin of its source, for a generated
// file how it was derived and from what.
func (pv provenance) annotate(rel string, e report.Entry) string {
	parts := []string{kindOf(e)}
	if sp, ok := pv.statePath(rel); ok {
		s := "state " + string(sp.Strategy)
		if l, ok := pv.strategySetter(sp.RelativePath); ok {
			s += " (set by " + pv.describeLayer(l) + ")"
		} else {
			s += " (default)"
		}
		parts = append(parts, s)
		if sp.SourcePath != "" {
			parts = append(parts, "source: "+pv.describeSourcePath(sp))
		}
	}
	if f, ok := pv.file(rel); ok {
		s := map[composite.FileStrategy]string{composite.FileCopy: "copied", composite.FileMerge: "merged", composite.FileTransform: "transformed"}[f.Strategy]
		if s == "" {
			s = "generated"
		}
		if from := pv.inputs(f.SourceInputs); from != "" {
			s += " from " + from
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// inputs names the origins of a generated file's inputs: the profile
// definitions they belong to, or the files themselves.
func (pv provenance) inputs(list []string) string {
	var out []string
	for _, in := range list {
		d := pv.name(in)
		if l, ok := pv.layerOf(in); ok {
			d = "profile " + l.ID
		} else if !strings.HasPrefix(in, "/") {
			d = "Outfitter's bundled " + in
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return strings.Join(out, ", ")
}

func kindOf(e report.Entry) string {
	switch e.Type {
	case vfs.TypeDir:
		return "dir"
	case vfs.TypeSymlink:
		if e.TargetExists != nil && !*e.TargetExists {
			return "link, dangling"
		}
		return "link"
	}
	return fmt.Sprintf("file, %d bytes", size(e))
}

// printTree writes the entries of a composite as a tree, each with its
// annotation; links show as "name -> target".
func printTree(w io.Writer, entries map[string]report.Entry, pv provenance, indent string) {
	paths := slices.Sorted(maps.Keys(entries))
	// last[i] tells, for each path, whether it is the last child of its
	// parent, which decides the branch drawn before it.
	isLast := map[string]bool{}
	lastChild := map[string]string{}
	for _, p := range paths {
		lastChild[path.Dir(p)] = p
	}
	for _, p := range lastChild {
		isLast[p] = true
	}
	for _, p := range paths {
		e := entries[p]
		var prefix strings.Builder
		// One column per ancestor: a bar when the ancestor has siblings
		// below it.
		elems := strings.Split(p, "/")
		for i := 1; i < len(elems); i++ {
			anc := strings.Join(elems[:i], "/")
			if isLast[anc] {
				prefix.WriteString("    ")
			} else {
				prefix.WriteString("│   ")
			}
		}
		branch := "├── "
		if isLast[p] {
			branch = "└── "
		}
		name := path.Base(p)
		switch e.Type {
		case vfs.TypeDir:
			name += "/"
		case vfs.TypeSymlink:
			name += " -> " + e.Target
		}
		fmt.Fprintf(w, "%s%s%s%s  [%s]\n", indent, prefix.String(), branch, name, pv.annotate(p, e))
	}
}
