package composite

import (
	"github.com/outfitter-go/vfsim/resolve"
)

// Controls are the profile's generic controls with the block of one agent
// laid over them (upstream's mergeAgentSpecificControls): a scalar of the
// block wins, the block's args and append_system_prompt replace the
// generic ones, the environments merge with the block's values winning,
// and extensions and skills are the block's followed by the generic ones,
// each resource once.
type Controls struct {
	// Model, Provider, Thinking, SessionDirectory, PromptTemplate and
	// SystemPrompt are nil when neither the block nor the generic
	// controls set them.
	Model, Provider, Thinking                      *string
	SessionDirectory, PromptTemplate, SystemPrompt *string
	// Args are the block's args, else the generic ones.
	Args []string
	// Extensions are the block's extensions, then the generic ones, each
	// resource once.
	Extensions []string
	// Skills are the block's skills, then the generic ones, each skill
	// once.
	Skills []resolve.Skill
	// AppendSystemPrompt is the block's list, else the generic one.
	AppendSystemPrompt []resolve.PromptEntry
	// Environment is the generic environment with the block's set over
	// it, in insertion order.
	Environment []EnvVar
	// DeepworkJobs is the generic controls.deepwork.jobs.
	DeepworkJobs []string
}

// Controls returns the profile's controls for the input's agent.
func (in *Input) Controls() Controls {
	c := in.profileControls()
	a := c.Agent(in.Agent)
	if a == nil {
		a = &resolve.Controls{}
	}
	m := Controls{
		Model:              firstString(a.Model, c.Model),
		Provider:           firstString(a.Provider, c.Provider),
		Thinking:           firstString(a.Thinking, c.Thinking),
		SessionDirectory:   firstString(a.SessionDirectory, c.SessionDirectory),
		PromptTemplate:     firstString(a.PromptTemplate, c.PromptTemplate),
		SystemPrompt:       firstString(a.SystemPrompt, c.SystemPrompt),
		Args:               c.Args,
		AppendSystemPrompt: c.AppendSystemPrompt,
		DeepworkJobs:       c.DeepworkJobs,
	}
	if a.Args != nil {
		m.Args = a.Args
	}
	if a.AppendSystemPrompt != nil {
		m.AppendSystemPrompt = a.AppendSystemPrompt
	}
	var env LaunchPlan
	// A capacity only: another count, or an empty list for none, changes
	// no result.
	if n := len(c.Environment) + len(a.Environment); n > 0 {
		env.Env = make([]EnvVar, 0, n)
	}
	for _, e := range c.Environment {
		env.Setenv(e.Name, e.Value)
	}
	for _, e := range a.Environment {
		env.Setenv(e.Name, e.Value)
	}
	m.Environment = env.Env
	seen := map[string]bool{}
	for _, list := range [][]string{a.Extensions, c.Extensions} {
		for _, e := range list {
			id := extensionIdentity(e, in.cwd())
			if !seen[id] {
				seen[id] = true
				m.Extensions = append(m.Extensions, e)
			}
		}
	}
	seenSkill := map[string]bool{}
	for _, list := range [][]resolve.Skill{a.Skills, c.Skills} {
		for _, s := range list {
			id := skillIdentity(s, in.cwd())
			if !seenSkill[id] {
				seenSkill[id] = true
				m.Skills = append(m.Skills, s)
			}
		}
	}
	return m
}

func firstString(a, b *string) *string {
	if a != nil {
		return a
	}
	return b
}
