package sources

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/outfitter-go/vfsim/composite"
	"github.com/outfitter-go/vfsim/resolve"
	"github.com/outfitter-go/vfsim/vfs"
)

// Status is the outcome of syncing one source, upstream's words.
type Status string

// The outcomes of syncing a source. A sync that ran reports updated, as
// upstream's git synchronizer does (it never reports unchanged).
const (
	StatusUpdated   Status = "updated"
	StatusUnchanged Status = "unchanged"
	StatusSkipped   Status = "skipped"
	StatusFailed    Status = "failed"
)

// SourceResult is the sync of one remote profile source or remote
// settings entry.
type SourceResult struct {
	// URI is the source as upstream shows it: its repository URI with
	// credentials redacted, then #<ref> and :<path> when it has them.
	URI string
	// CacheDir is the repository's cache directory.
	CacheDir string
	// Status says what happened.
	Status Status
	// Message explains it: the profiles validated, where the remote
	// settings file is, or the failure (credentials redacted).
	Message string
}

// Line returns the line upstream's sync prints for the result, its
// control characters quoted (resolve.Quote): names from a synced
// repository reach it.
func (r SourceResult) Line() string {
	return fmt.Sprintf("%s: %s -> %s (%s)", r.Status, resolve.Quote(r.URI), resolve.Quote(r.CacheDir), resolve.QuoteText(r.Message))
}

// Options configures [Sync] and [SyncSource].
type Options struct {
	// Home and Project are the directories, absolute paths of the file
	// system.
	Home, Project string
	// Agents are the agents profiles may configure (validation of the
	// synced profiles); nil means those of composite.DefaultRegistry.
	Agents *resolve.Agents
	// Runner runs git and npm, required: [Exec] runs the real tools. Sync
	// fails with a *resolve.OptionError naming it when it is nil (and
	// when Home or Project is not an absolute path).
	Runner Runner
	// Progress, when not nil, receives the progress lines upstream
	// prints while it clones and updates ("outfitter: cloning catalog
	// <uri>…").
	Progress func(string)
}

// SyncResult is what [Sync] did.
type SyncResult struct {
	// Sources are the results of the remote settings entries, then of
	// the remote profile sources, in the settings' order.
	Sources []SourceResult
	// Extensions are the results of refreshing the extension caches.
	Extensions []ExtensionResult
	// Messages are the lines upstream's sync prints.
	Messages []string
}

// SettingsError is a sync that cannot start, or cannot go on after the
// remote settings synced, because the settings are invalid.
type SettingsError struct {
	// Issues are the problems, in upstream's order.
	Issues []*resolve.Issue
}

// Error returns upstream's message.
func (e *SettingsError) Error() string {
	parts := make([]string, len(e.Issues))
	for i, is := range e.Issues {
		parts[i] = is.Error()
	}
	return "Cannot sync with invalid settings: " + strings.Join(parts, "; ")
}

// Unwrap returns the issues.
func (e *SettingsError) Unwrap() []error {
	errs := make([]error, len(e.Issues))
	for i, is := range e.Issues {
		errs[i] = is
	}
	return errs
}

// RefError is a git ref that could be read as an option of git.
type RefError struct {
	// Ref is the ref.
	Ref string
}

// Error returns upstream's message.
func (e *RefError) Error() string { return fmt.Sprintf("Git ref '%s' must not start with '-'.", e.Ref) }

// Sync is upstream's `outfitter sync`: it syncs the remote settings
// entries of the local settings files into the cache, reloads the
// settings with the entries that synced, syncs every remote profile
// source of those settings and validates its profiles, and refreshes the
// branch-tracking extension caches. A source that fails is a result with
// status failed, not an error; the error is for invalid settings (a
// [*SettingsError]) or a file system that cannot be read.
//
// Upstream's gate of private GitHub catalogs, which asks the GitHub API
// whether a repository is private, is not applied: every source is
// synced, as upstream does when it cannot tell.
func Sync(ctx context.Context, fsys FS, opts Options) (*SyncResult, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	agents := opts.agents()
	none := func([]resolve.RemoteSettings) []resolve.RemoteSettings { return nil }
	local, err := resolve.LoadSettingsWith(fsys, opts.Home, opts.Project, agents, none)
	if err != nil {
		return nil, err
	}
	if len(local.Issues) > 0 {
		return nil, &SettingsError{Issues: local.Issues}
	}
	out := &SyncResult{}
	var synced []resolve.RemoteSettings
	for _, ref := range local.Settings.RemoteSettings {
		r := syncRemoteSettings(ctx, fsys, opts, ref)
		out.Sources = append(out.Sources, r)
		if r.Status != StatusFailed {
			synced = append(synced, ref)
		}
	}
	loaded, err := resolve.LoadSettingsWith(fsys, opts.Home, opts.Project, agents, func([]resolve.RemoteSettings) []resolve.RemoteSettings { return synced })
	if err != nil {
		return nil, err
	}
	if len(loaded.Issues) > 0 {
		return nil, &SettingsError{Issues: loaded.Issues}
	}
	for _, s := range loaded.Settings.ProfileSources {
		if s.Remote() {
			out.Sources = append(out.Sources, SyncSource(ctx, fsys, opts, s))
		}
	}
	if out.Extensions, err = RefreshExtensions(ctx, fsys, opts.Runner, loaded.Settings.Cache(opts.Home), opts.Progress); err != nil {
		return nil, err
	}
	if len(out.Sources) == 0 && len(out.Extensions) == 0 {
		out.Messages = []string{"No URI profile or remote settings sources configured; nothing to sync."}
		return out, nil
	}
	for _, r := range out.Sources {
		out.Messages = append(out.Messages, r.Line())
	}
	for _, e := range out.Extensions {
		out.Messages = append(out.Messages, fmt.Sprintf("%s: pi extension %s (%s)", e.Status, resolve.Quote(e.Source), resolve.QuoteText(e.Message)))
	}
	return out, nil
}

func (o Options) agents() *resolve.Agents {
	if o.Agents != nil {
		return o.Agents
	}
	return defaultAgents()
}

// remote is what the git synchronizer needs of a remote source.
type remote struct {
	uri, github, ref, path string
}

func (r remote) repoURI() string { return resolve.RepoURI(r.uri, r.github) }

// display is the source as upstream shows it.
func (r remote) display() string {
	s := resolve.RedactURI(r.repoURI())
	if r.ref != "" {
		s += "#" + r.ref
	}
	if r.path != "" {
		s += ":" + r.path
	}
	return s
}

// failure is the result of a source whose sync failed, its credentials
// redacted from the message.
func (r remote) failure(dir string, err error) SourceResult {
	msg := err.Error()
	uri := r.repoURI()
	msg = strings.ReplaceAll(msg, uri, resolve.RedactURI(uri))
	plain := strings.TrimPrefix(uri, "git+")
	msg = strings.ReplaceAll(msg, plain, resolve.RedactURI(plain))
	return SourceResult{URI: r.display(), CacheDir: dir, Status: StatusFailed, Message: msg}
}

// syncRemoteSettings syncs one remote settings entry and checks that its
// settings file is there.
func syncRemoteSettings(ctx context.Context, fsys FS, opts Options, ref resolve.RemoteSettings) SourceResult {
	src := remote{uri: ref.URI, github: ref.GitHub, ref: ref.Ref, path: ref.Path}
	dir := ref.CacheDir(opts.Home)
	if _, err := resolve.RemoteSettingsPath(fsys, opts.Home, ref); err != nil {
		return src.failure(dir, err) // an unsafe path: git is not run
	}
	status, err := gitSync(ctx, fsys, opts, src, dir)
	if err != nil {
		return src.failure(dir, err)
	}
	file, err := resolve.RemoteSettingsPath(fsys, opts.Home, ref)
	if err != nil {
		return src.failure(dir, err)
	}
	if _, err := vfs.Stat(fsys, file); err != nil {
		return SourceResult{URI: src.display(), CacheDir: dir, Status: StatusFailed, Message: "Remote settings file not found: " + file}
	}
	return SourceResult{URI: src.display(), CacheDir: dir, Status: status, Message: "Remote settings file available at " + file + "."}
}

// SyncSource syncs one remote profile source into its cache directory
// and validates the profiles it holds, as upstream's sync does for each
// source and its first-run onboarding does for the default profiles.
func SyncSource(ctx context.Context, fsys FS, opts Options, s resolve.Source) SourceResult {
	src := remote{uri: s.URI, github: s.GitHub, ref: s.Ref, path: s.Path}
	dir := s.CacheDir(opts.Home)
	if err := opts.check(); err != nil {
		return src.failure(dir, err)
	}
	profiles, err := resolve.SourceDirectory(opts.Home, s)
	if err != nil {
		return src.failure(dir, err)
	}
	status, err := gitSync(ctx, fsys, opts, src, dir)
	if err != nil {
		return src.failure(dir, err)
	}
	layers, issues := resolve.LoadSource(fsys, resolve.Source{Path: profiles, Only: s.Only, Except: s.Except}, opts.agents())
	if len(issues) > 0 {
		parts := make([]string, len(issues))
		for i, is := range issues {
			parts[i] = is.Error()
		}
		return SourceResult{URI: src.display(), CacheDir: dir, Status: StatusFailed, Message: "Synced source failed profile validation: " + strings.Join(parts, "; ")}
	}
	msg := fmt.Sprintf("%d profiles validated.", len(layers))
	if len(layers) == 1 {
		msg = "1 profile validated."
	}
	return SourceResult{URI: src.display(), CacheDir: dir, Status: status, Message: msg}
}

// gitSync is upstream's git synchronizer: a cache that exists is fetched
// and fast-forwarded, or moved to the ref; one that does not is cloned,
// shallow and single-branch, at the ref when there is one. It holds the
// lock of the cache directory throughout (see [lockCache]), so two syncs
// of one cache, in one process or in two, run one after the other: the
// second finds the first one's clone and updates it, and a failed clone's
// directory is never removed while another sync uses it.
func gitSync(ctx context.Context, fsys FS, opts Options, src remote, dir string) (_ Status, err error) {
	if err := vfs.MkdirAll(fsys, path.Dir(dir), 0o755); err != nil {
		return "", err
	}
	unlock, err := lockCache(fsys, dir)
	if err != nil {
		return "", err
	}
	defer func() { err = errors.Join(err, unlock()) }()
	run := opts.Runner
	if _, err := vfs.Stat(fsys, dir); err == nil {
		say(opts.Progress, "outfitter: updating catalog "+src.display()+"…")
		if err := isRepository(fsys, dir); err != nil {
			return "", err
		}
		if err := migrateState(ctx, fsys, run, opts.Home, dir); err != nil {
			return "", err
		}
		return StatusUpdated, update(ctx, fsys, run, dir, src.ref)
	}
	say(opts.Progress, "outfitter: cloning catalog "+src.display()+"…")
	// A clone that fails leaves no directory behind: a partial checkout
	// (git keeps one when the checkout step fails) would be loaded by
	// the next run as if it were whole, and updated instead of cloned.
	defer func() {
		if err != nil {
			err = errors.Join(err, vfs.RemoveAll(fsys, dir))
		}
	}()
	url := strings.TrimPrefix(src.repoURI(), "git+")
	if src.ref == "" {
		_, err := run.Run(ctx, "", "git", "clone", "--depth", "1", "--single-branch", "--", url, dir)
		return StatusUpdated, err
	}
	if strings.HasPrefix(src.ref, "-") {
		return "", &RefError{Ref: src.ref}
	}
	if _, err := run.Run(ctx, "", "git", "clone", "--depth", "1", "--single-branch", "--branch", src.ref, "--", url, dir); err == nil {
		return StatusUpdated, nil
	} else if ctx.Err() != nil {
		return "", err
	}
	// A ref that is no branch or tag (a commit): a full clone, then the
	// checkout.
	if err := vfs.RemoveAll(fsys, dir); err != nil {
		return "", err
	}
	if _, err := run.Run(ctx, "", "git", "clone", "--", url, dir); err != nil {
		return "", err
	}
	return StatusUpdated, checkoutRef(ctx, run, dir, src.ref)
}

// update brings an existing clone to what its source names now. Unlike
// upstream's fetch --all --tags, which pulls the whole history of every
// tag into a shallow clone, it fetches only what the clone tracks (its
// single branch or tag, or every branch of a full clone), without tags,
// at depth 1 when the clone is shallow, and never recursing into
// submodules (git's default reads .gitmodules, and an entry with
// update = !cmd fails every later fetch, even once the repository
// fixed it). A clone without a ref then moves to its branch's new tip
// with reset --keep: a shallow fetch leaves no common history to
// fast-forward along (and a force-pushed branch is followed, as the
// checkout of a branch ref always did), while a local change that the
// update would overwrite stops it, as pull --ff-only does.
func update(ctx context.Context, fsys FS, run Runner, dir, ref string) error {
	args := []string{"-C", dir, "fetch", "--no-tags", "--no-recurse-submodules"}
	if _, err := vfs.Stat(fsys, vfs.Join(dir, ".git", "shallow")); err == nil {
		args = append(args, "--depth", "1")
	}
	if _, err := run.Run(ctx, "", "git", append(args, "origin")...); err != nil {
		return err
	}
	if ref == "" {
		_, err := run.Run(ctx, "", "git", "-C", dir, "reset", "--keep", "@{upstream}")
		return err
	}
	return checkoutRef(ctx, run, dir, ref)
}

// migrateState moves what an earlier version let the agent write into a
// checkout out of it, so that the update can bring the checkout to its
// repository's tip and nothing the agent wrote is lost: every file under
// a cli_specific/ directory that git reports as changed or untracked is
// copied to its state copy (resolve.SyncedState), unless that copy
// exists already (the state copy is what later runs wrote), and the
// checkout's own file is restored (untracked files removed). Links are
// not copied. Other local changes are left to the update, which stops on
// those it would overwrite.
func migrateState(ctx context.Context, fsys FS, run Runner, home, dir string) error {
	out, err := run.Run(ctx, "", "git", "-C", dir, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		return err
	}
	var tracked []string
	for _, entry := range strings.Split(out, "\x00") {
		if len(entry) < 4 {
			continue
		}
		code, rel := entry[:2], entry[3:]
		if !strings.HasPrefix(rel, "cli_specific/") && !strings.Contains(rel, "/cli_specific/") {
			continue
		}
		name := vfs.Join(dir, rel)
		if state := resolve.SyncedState(home, name); state != "" {
			if err := migrateFile(fsys, name, state); err != nil {
				return err
			}
		}
		if code == "??" {
			if err := vfs.Remove(fsys, name); err != nil {
				return err
			}
			continue
		}
		tracked = append(tracked, rel)
	}
	if len(tracked) == 0 {
		return nil
	}
	_, err = run.Run(ctx, "", "git", append([]string{"--literal-pathspecs", "-C", dir, "checkout", "-q", "HEAD", "--"}, tracked...)...)
	return err
}

// migrateFile copies the regular file name to state when state does not
// exist, durably; anything else (a deleted file, a link) is not copied.
func migrateFile(fsys FS, name, state string) error {
	if _, err := vfs.Lstat(fsys, state); err == nil {
		return nil
	}
	fi, err := vfs.Lstat(fsys, name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, err := vfs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	// On the disk before the checkout's file is restored.
	if err := vfs.MkdirAllSynced(fsys, path.Dir(state), 0o755); err != nil {
		return err
	}
	return vfs.ReplaceFile(fsys, state, data, fi.Mode().Perm())
}

// NotRepositoryError is a cache directory that exists but is not a git
// clone: it has no .git directory of its own. git is not run in it, as
// git would look for a repository in the directories above it (a
// dotfiles repository in the home, say) and fetch or pull that one.
type NotRepositoryError struct {
	// Dir is the cache directory.
	Dir string
}

// Error names the directory and says what to do.
func (e *NotRepositoryError) Error() string {
	return fmt.Sprintf("cache directory %s is not a git repository (it has no .git directory); remove it and sync again", resolve.Quote(e.Dir))
}

// isRepository checks that dir/.git is a directory (not a link, not a
// gitdir file), so that git run in dir uses it and never discovers an
// enclosing repository.
func isRepository(fsys FS, dir string) error {
	fi, err := vfs.Lstat(fsys, vfs.Join(dir, ".git"))
	if err != nil || !fi.IsDir() {
		return &NotRepositoryError{Dir: dir}
	}
	return nil
}

// checkoutRef checks out ref in a clone: the remote branch of that name
// when there is one (as a local branch reset to it), else the ref itself.
func checkoutRef(ctx context.Context, run Runner, dir, ref string) error {
	if strings.HasPrefix(ref, "-") {
		return &RefError{Ref: ref}
	}
	branch := "refs/remotes/origin/" + ref
	if _, err := run.Run(ctx, "", "git", "-C", dir, "rev-parse", "--verify", "--quiet", branch); err == nil {
		_, err := run.Run(ctx, "", "git", "-C", dir, "checkout", "-B", ref, branch)
		return err
	} else if ctx.Err() != nil {
		return err
	}
	_, err := run.Run(ctx, "", "git", "-C", dir, "checkout", ref)
	return err
}

// defaultAgents are the agents of Outfitter's registry.
func defaultAgents() *resolve.Agents { return composite.DefaultRegistry().Agents() }

// checkRunner reports a missing runner, named as the caller gave it.
func checkRunner(option string, run Runner) error {
	if run != nil {
		return nil
	}
	return &resolve.OptionError{
		Option:  option,
		Problem: "is nil, so git and npm cannot run",
		Fix:     "give sources.Exec{} to run the real tools (on the host's file system), or a Runner of your own",
	}
}

// check reports the options no sync can work with: no runner, a home or
// project directory that is not an absolute path.
func (o Options) check() error {
	if err := checkRunner("sources.Options.Runner", o.Runner); err != nil {
		return err
	}
	if err := resolve.CheckDir("sources.Options.Home", o.Home, "the home directory, whose .outfitter/settings.yml is read and whose cache is synced (os.UserHomeDir() on the host)"); err != nil {
		return err
	}
	return resolve.CheckDir("sources.Options.Project", o.Project, "the project directory, whose .outfitter/settings.yml is read (the working directory on the host)")
}
