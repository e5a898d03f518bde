package composite

// Checkout is a checkout of a git source that a launch needs on disk: the
// launch plan names Dir, so the agent finds nothing there unless it is
// fetched first (pi's git extensions, cached under
// <cache>/extensions/git). A [CheckoutAdapter] lists them; the run path
// fetches the absent ones before the agent starts.
type Checkout struct {
	// Source is the entry as the profile wrote it; the cache directory's
	// name is derived from it.
	Source string
	// URL is the URL to clone.
	URL string
	// Ref is the branch, tag or commit to check out: what follows the
	// last '#' of the entry.
	Ref string
	// Pinned reports that the entry names a ref (it has a '#', even
	// with nothing after it); an unpinned checkout tracks the default
	// branch and is refreshed by a sync.
	Pinned bool
	// Dir is the absolute directory of the checkout.
	Dir string
}

// A CheckoutAdapter is an [Adapter] whose launch plan names checkouts of
// git sources that must exist before the agent starts.
type CheckoutAdapter interface {
	Adapter
	// Checkouts returns the checkouts the launch plan of in names, in
	// the plan's order, each directory once.
	Checkouts(in *Input) []Checkout
}

// Checkouts returns the checkouts the run's launch plan needs (nil when
// the adapter is not a [CheckoutAdapter]); nothing is fetched.
func (r *Run) Checkouts() []Checkout {
	if a, ok := r.Adapter.(CheckoutAdapter); ok {
		return a.Checkouts(r.Input)
	}
	return nil
}
