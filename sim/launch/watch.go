package launch

import (
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/outfitter-go/vfsim/sim"
)

// DefaultDebounce is how long the watch of a running agent's inputs waits
// for the changes to stop before it refreshes the composite once.
const DefaultDebounce = 100 * time.Millisecond

// watch watches the session's inputs ([sim.Session].WatchPaths) while the
// child runs and refreshes the composite after they change: the
// directories holding them are watched (an editor that replaces a file
// by another is seen too), events for other names are ignored, and
// changes that come within the debounce of one another make one refresh,
// named after the first input that changed. An input whose directory
// cannot be watched is reported as upstream reports it. stop ends the
// watch, dropping changes that have not been refreshed yet, and waits
// for a refresh in progress, so that nothing refreshes once it returns;
// the watcher itself closes after it returns.
func (a *Agent) watch(s *sim.Session) (stop func()) {
	if a.opts.NoWatch || len(s.WatchPaths) == 0 {
		return func() {}
	}
	debounce := a.opts.Debounce
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	cannot := func(p string, err error) {
		s.Message("Could not watch composite profile input " + p + ": " + err.Error())
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		for _, p := range s.WatchPaths {
			cannot(p, err)
		}
		return func() {}
	}
	inputs := map[string]bool{}
	dirs := map[string]error{}
	for _, p := range s.WatchPaths {
		p = filepath.Clean(p)
		dir := filepath.Dir(p)
		err, seen := dirs[dir]
		if !seen {
			err = w.Add(dir)
			dirs[dir] = err
		}
		if err != nil {
			cannot(p, err)
			continue
		}
		inputs[p] = true
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		// The watches are removed before stop returns, and the watcher is
		// closed after: closing an inotify descriptor waits for the kernel
		// to retire its watches (milliseconds, more on a busy machine; a
		// process that exits with it open waits the same), so the close
		// overlaps what the run does after the agent instead of
		// preceding it.
		defer func() { _ = w.Close() }()
		defer close(finished)
		defer func() {
			for dir, err := range dirs {
				if err == nil {
					_ = w.Remove(dir)
				}
			}
		}()
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		first := ""
		for {
			select {
			case <-done:
				timer.Stop()
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !inputs[filepath.Clean(ev.Name)] {
					continue
				}
				if first == "" {
					first = ev.Name
				}
				timer.Reset(debounce)
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-timer.C:
				// A failed refresh is the run's message; the agent goes on.
				_ = s.RefreshAfter(first)
				first = ""
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
