package main

import (
	"os"
	"path/filepath"

	"github.com/outfitter-go/vfsim/sim"
)

// host is a real machine's home and project as the commands that work on
// one (dry-run, exec, explain, lint) see them: absolute, slash-separated,
// with the working directory the run starts in.
type host struct {
	home, project, cwd string
}

// hostOf returns the host of the --home and --project flags: home defaults
// to the user's home directory, project to the working directory.
func hostOf(home, project string) (host, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return host{}, err
	}
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return host{}, err
		}
	}
	if project == "" {
		project = cwd
	}
	if home, err = filepath.Abs(home); err != nil {
		return host{}, err
	}
	if project, err = filepath.Abs(project); err != nil {
		return host{}, err
	}
	return host{home: filepath.ToSlash(home), project: filepath.ToSlash(project), cwd: filepath.ToSlash(cwd)}, nil
}

// options returns the run options of a run on the host: its temporary
// directory, working directory and process environment.
func (h host) options() sim.Options {
	return sim.Options{TempDir: filepath.ToSlash(os.TempDir()), Cwd: h.cwd, Env: os.Environ()}
}
