package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHostOf: with no --home the home is the user's ($HOME), with no
// --project the project is the working directory, relative flags are taken
// from the working directory, and a home that cannot be found or a working
// directory that is gone is an error, not a host of empty names. Not
// parallel: it sets HOME and the working directory of the process.
func TestHostOf(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	t.Setenv("HOME", "/home/someone")
	tests := []struct {
		home, project string
		want          host
	}{
		{"", "", host{home: "/home/someone", project: cwd, cwd: cwd}},
		{"h", "p", host{home: cwd + "/h", project: cwd + "/p", cwd: cwd}},
		{"/x/h", "/x/p", host{home: "/x/h", project: "/x/p", cwd: cwd}},
	}
	for _, tt := range tests {
		got, err := hostOf(tt.home, tt.project)
		if err != nil {
			t.Fatalf("hostOf(%q, %q): %v", tt.home, tt.project, err)
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(host{})); diff != "" {
			t.Errorf("hostOf(%q, %q) (-want +got):\n%s", tt.home, tt.project, diff)
		}
	}

	t.Setenv("HOME", "")
	if got, err := hostOf("", "/x/p"); err == nil || !strings.Contains(err.Error(), "$HOME") {
		t.Errorf("hostOf without --home or $HOME = %+v, %v; want the error that no home is known", got, err)
	}
	if _, err := hostOf("/x/h", ""); err != nil {
		t.Errorf("hostOf with --home and no $HOME: %v", err)
	}

	if err := os.Remove(cwd); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Getwd(); err == nil {
		t.Fatal("precondition: the working directory is gone, yet os.Getwd answers")
	}
	if got, err := hostOf("/x/h", "/x/p"); err == nil {
		t.Errorf("hostOf in a working directory that is gone = %+v, want an error", got)
	}
}
