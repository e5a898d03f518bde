package composite_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
)

func TestDefaultRegistry(t *testing.T) {
	t.Parallel()
	reg := composite.DefaultRegistry()
	if diff := cmp.Diff([]string{"pi", "claude"}, reg.IDs()); diff != "" {
		t.Errorf("IDs (-want +got):\n%s", diff)
	}
	if got := reg.Agents(); got.Default() != "pi" || !slices.Equal(got.IDs(), reg.IDs()) {
		t.Errorf("Agents %v default %q, want the registry's ids, pi first", got.IDs(), got.Default())
	}
	for _, id := range reg.IDs() {
		a, err := reg.Lookup(id)
		if err != nil || a.ID() != id {
			t.Errorf("Lookup(%q) = %v, %v", id, a, err)
		}
	}
}

// named is an adapter of any id, for registry checks; it plans nothing.
type named struct {
	composite.Adapter
	id, block string
}

func (n named) ID() string          { return n.id }
func (n named) BlockSchema() string { return n.block }

func TestNewRegistryRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		adapters []composite.Adapter
		want     string
	}{
		{"same id twice", []composite.Adapter{composite.Pi{}, named{id: "pi"}}, `agent registry: agent id "pi": given twice`},
		{"invalid id", []composite.Adapter{named{id: "Big Agent"}}, `agent registry: agent id "Big Agent": not a filesystem-safe id`},
		{"a control's name", []composite.Adapter{named{id: "provider"}}, `agent registry: agent id "provider": names a generic control`},
		{"bad block schema", []composite.Adapter{named{id: "x", block: `{"properties": {"a": {"$ref": "#/$defs/nothing"}}}`}}, "agent registry: profile schema:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			reg, err := composite.NewRegistry(tt.adapters...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("NewRegistry = %v, %v; want an error starting %q", reg, err, tt.want)
			}
		})
	}
}

// TestPlanLooksTheAgentUpInItsRegistry plans a result resolved for pi with
// a registry without pi: the plan refuses it, naming the registry's agents.
func TestPlanLooksTheAgentUpInItsRegistry(t *testing.T) {
	t.Parallel()
	reg, err := composite.NewRegistry(composite.Claude{})
	if err != nil {
		t.Fatal(err)
	}
	w := world{profiles: map[string]string{"eng": "id: eng\n"}, opts: composite.Options{Registry: reg}}
	fsys := w.newFS(t)
	_, err = w.plan(t, fsys)
	if _, ok := errors.AsType[*resolve.AgentError](err); !ok || err.Error() != "Unknown agent 'pi'. Expected one of: claude." {
		t.Fatalf("plan error %v, want the registry's unknown agent error", err)
	}
	if list, _ := fsys.ReadDir("/tmp"); len(list) != 0 {
		t.Errorf("the refused plan left %d roots", len(list))
	}
}

// TestUnknownAgentBlockIsAControl checks that the block of an agent no
// adapter is registered for is reported by both adapters with upstream's
// warning, and never read as their own block.
func TestUnknownAgentBlockIsAControl(t *testing.T) {
	t.Parallel()
	profile := "id: eng\ncontrols:\n  model: generic\n  codex:\n    model: codex-model\n    args: [--codex]\n    environment: {CODEX: \"1\"}\n"
	for _, agent := range []string{"pi", "claude"} {
		t.Run(agent, func(t *testing.T) {
			t.Parallel()
			w := world{agent: agent, profiles: map[string]string{"eng": profile}}
			_, r := w.mustPlan(t)
			want := []string{agent + " adapter cannot translate requested control 'codex'."}
			checkWarnings(t, want, r.Warnings)
			if !slices.Contains(r.Plan.Args, "generic") || slices.Contains(r.Plan.Args, "codex-model") || slices.Contains(r.Plan.Args, "--codex") {
				t.Errorf("args %q: want the generic model and nothing of the codex block", r.Plan.Args)
			}
			if _, ok := r.Plan.Getenv("CODEX"); ok {
				t.Errorf("env %v holds the codex block's variable", r.Plan.Env)
			}
		})
	}
}

// TestUnsupportedControlWarnings checks each adapter's unsupported-control
// warnings against upstream's order.
func TestUnsupportedControlWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		world world
		want  []string
	}{
		{
			// pi's warnings: generic keys it does not translate are reported
			// in the order of the merged controls (upstream's pi filters the
			// keys against genericControlNames, agents/pi/PiAdapter.ts:555),
			// including allow_external_deepwork_jobs, which only pi's block
			// takes, then its block's keys not among piControlNames
			// (allowExternalDeepWorkJobs is).
			name:  "PiWarnsAboutGenericControls",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  temperature: 1\n  model: m\n  allow_external_deepwork_jobs: false\n  claude: {model: c}\n  pi:\n    review_mode: x\n    allow_external_deepwork_jobs: false\n    allowExternalDeepWorkJobs: false\n    deepwork: {jobs: []}\n    claude: {}\n  budget: 3\n"}},
			want: []string{
				"pi adapter cannot translate requested control 'temperature'.",
				"pi adapter cannot translate requested control 'allow_external_deepwork_jobs'.",
				"pi adapter cannot translate requested control 'budget'.",
				"pi adapter cannot translate requested control 'pi.review_mode'.",
				"pi adapter cannot translate requested control 'pi.claude'.",
			},
		},
		{
			// claude's warnings against upstream's findUnsupportedControlNames
			// (agents/AdapterProfileControls.ts:77,
			// agents/claude/ClaudeAdapter.ts:209): the alias pairs first, each
			// named by its snake_case key, then the other keys in the order of
			// the merged controls, then the block's keys the same way; all
			// after the warning about the skill x, which resolves nowhere.
			name: "ClaudeUnsupportedControlOrder",
			world: world{agent: "claude", profiles: map[string]string{"eng": "id: eng\ncontrols:\n  temperature: 0.2\n  provider: acme\n  model: m\n  review_mode: strict\n" +
				"  prompt_template: t\n  skills: [x]\n  claude:\n    provider: p\n    prompt_template: t\n    pi: {}\n    model: c\n"}},
			want: []string{
				"Skill 'x' does not resolve in any skills directory; passing it through as a path source.",
				"claude adapter cannot translate requested control 'prompt_template'.",
				"claude adapter cannot translate requested control 'temperature'.",
				"claude adapter cannot translate requested control 'provider'.",
				"claude adapter cannot translate requested control 'review_mode'.",
				"claude adapter cannot translate requested control 'skills'.",
				"claude adapter cannot translate requested control 'claude.prompt_template'.",
				"claude adapter cannot translate requested control 'claude.provider'.",
				"claude adapter cannot translate requested control 'claude.pi'.",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, r := tt.world.mustPlan(t)
			checkWarnings(t, tt.want, r.Warnings)
		})
	}
}

// TestPiExternalDeepworkJobs checks where pi reads
// allow_external_deepwork_jobs: from the controls merged for pi, its
// block's value winning over the generic one, as upstream does.
func TestPiExternalDeepworkJobs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, controls string
		external       bool
	}{
		{"pi block", "pi: {allow_external_deepwork_jobs: true}", true},
		{"camelCase in the pi block", "pi: {allowExternalDeepWorkJobs: true}", true},
		{"generic", "allow_external_deepwork_jobs: true", true},
		{"the block wins", "allow_external_deepwork_jobs: true\n  pi: {allow_external_deepwork_jobs: false}", false},
		{"unset", "model: m", false},
		{"another agent's block", "claude: {allow_external_deepwork_jobs: true}", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			eng := home + "/.outfitter/profiles/eng"
			w := world{
				profiles: map[string]string{"eng": "id: eng\ncontrols:\n  environment: {DEEPWORK_ADDITIONAL_JOBS_FOLDERS: /ext}\n  " + tt.controls + "\n"},
				files:    map[string]string{eng + "/deepwork/jobs/j/job.yml": "name: j\n"},
			}
			_, r := w.mustPlan(t)
			want := eng + "/deepwork/jobs"
			if tt.external {
				want = "/ext:" + want
			}
			if got, _ := r.Plan.Getenv("DEEPWORK_ADDITIONAL_JOBS_FOLDERS"); got != want {
				t.Errorf("DEEPWORK_ADDITIONAL_JOBS_FOLDERS = %q, want %q", got, want)
			}
		})
	}
}

// TestPiExternalDeepworkJobsProcessEnv checks the external value upstream
// keeps when allowed: the profile's own value, else the process
// environment's as the child would see it (of two entries, the last),
// controls.environment[DEEPWORK_ADDITIONAL_JOBS_FOLDERS] ??
// process.env[…] (agents/pi/PiAdapter.ts:449).
func TestPiExternalDeepworkJobsProcessEnv(t *testing.T) {
	t.Parallel()
	eng := home + "/.outfitter/profiles/eng"
	env := []string{"DEEPWORK_ADDITIONAL_JOBS_FOLDERS=/stale", "HOME=/h", "DEEPWORK_ADDITIONAL_JOBS_FOLDERS=/process::/p2"}
	for _, tc := range []struct{ name, environment, want string }{
		{"the profile's value wins", "environment: {DEEPWORK_ADDITIONAL_JOBS_FOLDERS: /ext}", "/ext:" + eng + "/deepwork/jobs"},
		{"else the process's", "model: m", "/process:/p2:" + eng + "/deepwork/jobs"},
		{"an empty profile value is a value", `environment: {DEEPWORK_ADDITIONAL_JOBS_FOLDERS: ""}`, eng + "/deepwork/jobs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := world{
				profiles: map[string]string{"eng": "id: eng\ncontrols:\n  " + tc.environment + "\n  allow_external_deepwork_jobs: true\n"},
				files:    map[string]string{eng + "/deepwork/jobs/j/job.yml": "name: j\n"},
				env:      env,
			}
			_, r := w.mustPlan(t)
			if got, _ := r.Plan.Getenv("DEEPWORK_ADDITIONAL_JOBS_FOLDERS"); got != tc.want {
				t.Errorf("DEEPWORK_ADDITIONAL_JOBS_FOLDERS = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPiNamedDeepworkJobs checks deepwork.jobs as upstream resolves them
// (agents/pi/PiAdapter.ts:449-499): each layer's named jobs are looked up
// in the shared job roots of its source (dirname(source)/deepwork/jobs,
// source/deepwork/jobs, source/.outfitter/deepwork/jobs), the folders
// holding <job>/job.yml join DEEPWORK_ADDITIONAL_JOBS_FOLDERS after an
// allowed external value and before the profile folders' own job folders,
// and a job found in none warns once per layer.
func TestPiNamedDeepworkJobs(t *testing.T) {
	t.Parallel()
	profiles := home + "/.outfitter/profiles"
	eng := profiles + "/eng"
	projectProfiles := project + "/.outfitter/profiles"
	tests := []struct {
		name     string
		world    world
		want     string // "" for no variable
		warnings []string
	}{
		{
			name: "found in the root beside the source",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  deepwork: {jobs: [job_a]}\n"},
				files: map[string]string{home + "/.outfitter/deepwork/jobs/job_a/job.yml": "name: job_a\n"}},
			want: home + "/.outfitter/deepwork/jobs",
		},
		{
			name: "every root that holds it, in root order, before the profile folders",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  deepwork: {jobs: [job_a]}\n"}, files: map[string]string{
				profiles + "/.outfitter/deepwork/jobs/job_a/job.yml": "name: job_a\n",
				profiles + "/deepwork/jobs/job_a/job.yml":            "name: job_a\n",
				eng + "/deepwork/jobs/own/job.yml":                   "name: own\n",
			}},
			want: profiles + "/deepwork/jobs:" + profiles + "/.outfitter/deepwork/jobs:" + eng + "/deepwork/jobs",
		},
		{
			name: "a job that is not a file, or a folder of the profile, is not found",
			world: world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  deepwork: {jobs: [job_a, job_b]}\n"}, files: map[string]string{
				home + "/.outfitter/deepwork/jobs/job_a/job.yml/x": "not a file\n",
				eng + "/deepwork/jobs/job_b/job.yml":               "name: job_b\n",
			}},
			want: eng + "/deepwork/jobs",
			warnings: []string{
				"pi adapter could not find DeepWork job 'job_a' for profile 'eng'.",
				"pi adapter could not find DeepWork job 'job_b' for profile 'eng'.",
			},
		},
		{
			name: "each layer looks in its own source's roots",
			world: world{
				profiles: map[string]string{"eng": "id: eng\ncontrols:\n  deepwork: {jobs: [job_a]}\n"},
				files: map[string]string{
					home + "/.outfitter/settings.yml":                   "default_profile: eng\nprofile_sources:\n  - path: ./profiles\n  - path: " + projectProfiles + "\n",
					projectProfiles + "/eng/profile.yml":                "id: eng\ncontrols:\n  deepwork: {jobs: [job_c, job_a]}\n",
					home + "/.outfitter/deepwork/jobs/job_a/job.yml":    "name: job_a\n",
					project + "/.outfitter/deepwork/jobs/job_c/job.yml": "name: job_c\n",
				},
			},
			want:     home + "/.outfitter/deepwork/jobs:" + project + "/.outfitter/deepwork/jobs",
			warnings: []string{"pi adapter could not find DeepWork job 'job_a' for profile 'eng'."},
		},
		{
			name:     "not found anywhere: a warning and no variable",
			world:    world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  deepwork: {jobs: [job_zz]}\n"}},
			warnings: []string{"pi adapter could not find DeepWork job 'job_zz' for profile 'eng'."},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, r := tc.world.mustPlan(t)
			got, ok := r.Plan.Getenv("DEEPWORK_ADDITIONAL_JOBS_FOLDERS")
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("DEEPWORK_ADDITIONAL_JOBS_FOLDERS = %q (set %v), want %q", got, ok, tc.want)
			}
			checkWarnings(t, tc.warnings, r.Warnings)
		})
	}
}

// TestSkillProblemsInTheAgentsOrder checks that catalog skill problems
// come in control order, the generic controls then the agents' blocks in
// the registry's order, each named controls.skills/<id> whatever its
// block, as upstream names them (SkillResolution.ts:118 and :138).
func TestSkillProblemsInTheAgentsOrder(t *testing.T) {
	t.Parallel()
	w := world{profiles: map[string]string{"eng": "id: eng\ncontrols:\n  claude: {skills: [{id: third}]}\n  pi: {skills: [{id: second}]}\n  skills: [{id: first}]\n"}}
	fsys := w.newFS(t)
	_, err := w.plan(t, fsys)
	want := "Cannot resolve profile skills: controls.skills/first Skill ID 'first' does not resolve in any skills directory.; " +
		"controls.skills/second Skill ID 'second' does not resolve in any skills directory.; " +
		"controls.skills/third Skill ID 'third' does not resolve in any skills directory."
	if _, ok := errors.AsType[*composite.SkillsError](err); !ok || err.Error() != want {
		t.Fatalf("plan error %v, want %s", err, want)
	}
}
