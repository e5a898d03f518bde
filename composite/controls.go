package composite

import (
	"github.com/outfitter-go/vfsim/resolve"
)

// agentControls are the generic controls overlaid by one agent's block
// (upstream's mergeAgentSpecificControls).
type agentControls struct {
	Model, Provider, Thinking                      *string
	SessionDirectory, PromptTemplate, SystemPrompt *string
	Args                                           []string
	Extensions                                     []string
	Skills                                         []resolve.Skill
	AppendSystemPrompt                             []resolve.PromptEntry
	Environment                                    []EnvVar
	DeepworkJobs                                   []string
	AllowExternalDeepworkJobs                      *bool
}

// mergeAgentControls overlays the agent block of c on its generic controls.
func mergeAgentControls(c *resolve.Controls, agent, cwd string) agentControls {
	var a *resolve.Controls
	switch agent {
	case "pi":
		a = c.Pi
	case "claude":
		a = c.Claude
	}
	if a == nil {
		a = &resolve.Controls{}
	}
	m := agentControls{
		Model:                     firstString(a.Model, c.Model),
		Provider:                  firstString(a.Provider, c.Provider),
		Thinking:                  firstString(a.Thinking, c.Thinking),
		SessionDirectory:          firstString(a.SessionDirectory, c.SessionDirectory),
		PromptTemplate:            firstString(a.PromptTemplate, c.PromptTemplate),
		SystemPrompt:              firstString(a.SystemPrompt, c.SystemPrompt),
		Args:                      c.Args,
		AppendSystemPrompt:        c.AppendSystemPrompt,
		DeepworkJobs:              c.DeepworkJobs,
		AllowExternalDeepworkJobs: a.AllowExternalDeepworkJobs,
	}
	if a.AllowExternalDeepworkJobs == nil {
		m.AllowExternalDeepworkJobs = c.AllowExternalDeepworkJobs
	}
	if a.Args != nil {
		m.Args = a.Args
	}
	if a.AppendSystemPrompt != nil {
		m.AppendSystemPrompt = a.AppendSystemPrompt
	}
	if a.DeepworkJobs != nil {
		m.DeepworkJobs = a.DeepworkJobs
	}
	var env LaunchPlan
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
			id := extensionIdentity(e, cwd)
			if !seen[id] {
				seen[id] = true
				m.Extensions = append(m.Extensions, e)
			}
		}
	}
	seenSkill := map[string]bool{}
	for _, list := range [][]resolve.Skill{a.Skills, c.Skills} {
		for _, s := range list {
			id := skillIdentity(s, cwd)
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
