// Package sources fetches what a run needs from git repositories, as
// upstream Outfitter does with the git CLI: the checkouts a launch plan
// names (pi's git extensions, [Fetch]), the refresh of the
// branch-tracking ones ([RefreshExtensions]), and `outfitter sync` of
// remote profile sources and remote settings ([Sync], [SyncSource]).
//
// # Tools behind an interface
//
// Every git and npm command goes through a [Runner]: [Exec] runs the real
// tools as child processes, on the host's paths, so the file system given
// next to it must be the host's view (osfs.New()); a test gives a runner
// of its own, or [Exec] with local bare repositories behind file:// URLs,
// so that nothing reaches the network. The file system is used for what
// upstream checks and writes itself: whether a checkout exists, the
// sidecar of an extension cache, a failed clone removed.
//
// # Synced content
//
// What arrives by sync is synced content, and the rule of synced content
// is stated once, in package resolve (resolve.SyncedCheckout and
// resolve.Confine), and enforced wherever such content is read: a
// checkout under home/.outfitter/cache (of a remote profile source or of
// a remote settings entry), and every profile source, profile, include or
// skill lying in it, whoever declared it, may read only inside its own
// checkout (and, through repo_file, inside the project), links resolved;
// a synced settings file sets no cache_directory and declares no local
// source outside its checkout; a skill or extension path a synced profile
// declares reaches the agent only inside its checkout or the project, and
// its session_directory is not used; and the agent's writes never land in a
// checkout: a synced profile's state source is its copy under
// home/.outfitter/state (resolve.SyncedState), and [Sync] moves what an
// earlier version let the agent write into a checkout there before it
// updates. A run that would break the rule is refused before anything is
// written, with an error naming the file, the link and where it leads.
// git itself runs hardened: a clone is updated at the depth it was cloned
// with and never recurses into submodules, the caller's repository
// variables are dropped ([ScrubGitEnv]), git never runs in a cache
// directory that is not a clone ([NotRepositoryError]), and a failed
// clone leaves no directory. docs/security.md lists each part and what a
// hostile repository can make a sync and a run cost.
//
// # Concurrent sessions
//
// Every change of a cache directory holds its lock (vfs.LockFile of the
// directory, a lock file beside it that exists while held): a sync of a
// profile source or of remote settings, the fetch of an extension
// checkout and its refresh. Two syncs of one cache run one after the
// other, the second updating what the first cloned; a fetch that waited
// finds the checkout made and leaves it; a failed clone is removed before
// the lock is released, never under another session. A run that starts
// while a cache it reads is being synced waits for the sync to end and
// reads the cache again ([WaitForSyncs]): it never reads a checkout half
// updated, and never an older one than the sync leaves.
//
// # Messages
//
// Progress lines ("outfitter: cloning catalog …") go to a progress
// function, as upstream prints them on standard output before the agent
// starts; results carry upstream's status words and messages, and
// [SyncResult].Messages the lines `outfitter sync` prints.
package sources
