package composite

import (
	"slices"

	"github.com/outfitter-go/vfsim/vfs"
)

// Claude is the adapter of Claude Code.
type Claude struct{}

// claudeID is Claude Code's agent id.
const claudeID = "claude"

// ID returns "claude".
func (Claude) ID() string { return claudeID }

// InstallHint returns upstream's hint for installing Claude Code.
func (Claude) InstallHint() string {
	return "Install Claude Code from https://claude.com/claude-code, then rerun with `--agent claude`."
}

// Declarations returns Claude's declared state paths (§2.4). The slice
// is the caller's; the Allowed lists are shared and must not be modified.
func (Claude) Declarations() []Declaration { return slices.Clone(claudeDeclarations) }

// claudeDeclarations is read only.
var claudeDeclarations = []Declaration{
	decl("settings.json", StrategySymlink, StrategySymlink, StrategyWarn, StrategyError, StrategyPrompt),
	decl("agents/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt),
	decl("skills/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt),
	decl("commands/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt),
	decl("plugins/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError, StrategyPrompt),
	decl("projects/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	decl("debug/", StrategySymlink, StrategySymlink, StrategyDiscard, StrategyWarn, StrategyError),
	unknownDeclaration(),
}

// Compose plans Claude's composite (§1.10).
func (a Claude) Compose(in *Input) (*Composite, []string, error) {
	sessions, warning := in.sessionDirectory(in.Controls())
	paths, err := in.StatePaths(claudeDeclarations, StateSources{
		Override: func(key string) string {
			if key == "projects/" && sessions != nil {
				return *sessions
			}
			return ""
		},
		Native: nativeSources(in.Home, ".claude", claudeDeclarations),
	})
	if err != nil {
		return nil, nil, err
	}
	c := &Composite{Root: in.Root, StatePaths: paths, Files: []File{in.ProfileFile()}}
	plugin, err := in.PluginFiles()
	if err != nil {
		return nil, nil, err
	}
	c.Files = append(c.Files, plugin...)
	warnings := in.Unsupported(claudeSupported, claudeSupported)
	if warning != "" {
		warnings = append(warnings, warning)
	}
	return c, warnings, nil
}

// claudeSupported lists the control keys Claude translates, generic and in
// its block alike.
var claudeSupported = []string{
	"model", "thinking", "system_prompt", "systemPrompt",
	"append_system_prompt", "appendSystemPrompt", "extensions", "args",
	"environment", "session_directory", "sessionDirectory",
}

// Launch builds Claude's launch plan (§3.4).
func (a Claude) Launch(in *Input, c *Composite) (LaunchPlan, []string, error) {
	m := in.Controls()
	var args []string
	flag := func(name string, v *string) {
		if v != nil {
			args = append(args, name, *v)
		}
	}
	flag("--model", m.Model)
	flag("--effort", m.Thinking)
	flag("--system-prompt", m.SystemPrompt)
	prompts, warnings := in.AppendPrompts(m)
	for _, p := range prompts {
		args = append(args, "--append-system-prompt", p)
	}
	for _, e := range m.Extensions {
		if w := syncedExtension(in, e); w != "" {
			warnings = append(warnings, w)
			continue
		}
		args = append(args, "--plugin-dir", e)
	}
	args = append(args, m.Args...)
	if hasAsset(in.Assets, AssetSkill) {
		args = append(args, "--plugin-dir", vfs.Join(c.Root, pluginDir))
	}
	args = append(args, in.PassThrough...)
	plan := LaunchPlan{Command: claudeID, Args: args, Env: append([]EnvVar(nil), m.Environment...)}
	plan.Setenv("CLAUDE_CONFIG_DIR", c.Root)
	return plan, warnings, nil
}
