package writeback

import (
	"bytes"
	"fmt"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/vfs"
	"go.yaml.in/yaml/v3"
)

// stateKey is the profile key that holds strategy overrides.
const stateKey = "state_persistence"

// Record sets state_persistence.<key>: symlink in the profile YAML file,
// creating the mapping if it is absent and keeping the rest of the
// document: other keys and their order, and comments as far as the YAML
// library keeps them. The file is re-encoded with two-space indentation;
// its permission bits are kept. A file whose top level, or whose
// state_persistence value, is not a mapping is left alone and reported.
//
// The edit is atomic: the new document is written to a temporary file
// beside the profile file and renamed over it ([vfs.ReplaceFile]), so a
// full disk or an interruption at any point leaves the old document or
// the new one, whole, never a part or an empty file (upstream rewrites the
// file in place). A profile file that is a symbolic link stays a link: the
// file it leads to is replaced, as upstream's write through the link
// edits it.
func Record(fsys PersistFS, file, key string) error {
	data, err := vfs.ReadFile(fsys, file)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("parse profile file %s: %w", file, err)
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return fmt.Errorf("profile file %s: top level is not a mapping", file)
	}
	sp := mapValue(top, stateKey)
	switch {
	case sp == nil:
		sp = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		top.Content = append(top.Content, scalar(stateKey), sp)
	case sp.Kind == yaml.ScalarNode && sp.Tag == "!!null":
		*sp = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: sp.HeadComment, LineComment: sp.LineComment, FootComment: sp.FootComment}
	case sp.Kind != yaml.MappingNode:
		return fmt.Errorf("profile file %s: %s is not a mapping", file, stateKey)
	}
	want := string(composite.StrategySymlink)
	if v := mapValue(sp, key); v != nil {
		v.Kind, v.Tag, v.Value, v.Style, v.Content, v.Alias, v.Anchor = yaml.ScalarNode, "!!str", want, 0, nil, nil, ""
	} else {
		sp.Content = append(sp.Content, scalar(key), scalar(want))
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("encode profile file %s: %w", file, err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("encode profile file %s: %w", file, err)
	}
	// A profile file that is a link (a dotfiles checkout) stays a link:
	// the file it leads to is the one replaced.
	real, err := vfs.EvalSymlinks(fsys, file)
	if err != nil {
		return err
	}
	fi, err := vfs.Stat(fsys, real)
	if err != nil {
		return err
	}
	return vfs.ReplaceFile(fsys, real, buf.Bytes(), fi.Mode().Perm())
}

// mapValue returns the value of the string key in a mapping node, or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}
