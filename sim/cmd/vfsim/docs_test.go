package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The README and the pages of docs/ are checked here, so that what they
// show keeps working: every Go snippet is cut from a file the build
// compiles, every relative link leads to a file (and heading) of the
// repository, and every shell command names packages, commands, flags and
// test patterns that exist; the vfsim commands that read only the
// repository are run.

// repoRoot is the module root, from this package's directory.
var repoRoot = filepath.Join("..", "..", "..")

// docPage is one Markdown page: its path relative to the root, and text.
type docPage struct {
	name, text string
}

// docPages reads README.md and docs/*.md.
func docPages(t *testing.T) []docPage {
	t.Helper()
	names := []string{"README.md"}
	more, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		rel, _ := filepath.Rel(repoRoot, m)
		names = append(names, filepath.ToSlash(rel))
	}
	var pages []docPage
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(repoRoot, n))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, docPage{n, string(data)})
	}
	if len(pages) < 5 {
		t.Fatalf("found %d pages (README.md and docs/*.md), want the README and the four pages of docs/", len(pages))
	}
	return pages
}

// fence is a fenced code block of a page: its info string, first line
// number and text (the fence's indentation removed).
type fence struct {
	lang string
	line int
	text string
}

// fences returns the fenced code blocks of a Markdown text, and the text
// with every block's lines blanked out (for the link check).
func fences(text string) (blocks []fence, prose string) {
	lines := strings.Split(text, "\n")
	var out []string
	var cur *fence
	var indent string
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		if cur == nil && strings.HasPrefix(trimmed, "```") {
			indent = l[:len(l)-len(trimmed)]
			cur = &fence{lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: i + 2}
			out = append(out, "")
			continue
		}
		if cur != nil && strings.TrimSpace(l) == "```" {
			blocks = append(blocks, *cur)
			cur = nil
			out = append(out, "")
			continue
		}
		if cur != nil {
			cur.text += strings.TrimPrefix(l, indent) + "\n"
			out = append(out, "")
			continue
		}
		out = append(out, l)
	}
	return blocks, strings.Join(out, "\n")
}

// codeLines are the lines of a text without surrounding space, blank
// lines left out: how a snippet and a source file are compared.
func codeLines(text string) []string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// goSources reads every .go file of the repository (testdata and hidden
// directories left out), as code lines by path.
func goSources(t *testing.T) map[string][]string {
	t.Helper()
	files := map[string][]string{}
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		files[filepath.ToSlash(rel)] = codeLines(string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDocsGoSnippets: every Go snippet of the README and docs/ is a run of
// lines of a .go file of the repository (spacing aside), so it compiles
// and, in a runnable example, runs.
func TestDocsGoSnippets(t *testing.T) {
	t.Parallel()
	sources := goSources(t)
	snippets := 0
	for _, p := range docPages(t) {
		blocks, _ := fences(p.text)
		for _, b := range blocks {
			if b.lang != "go" {
				continue
			}
			snippets++
			want := codeLines(b.text)
			found := false
			for _, lines := range sources {
				if containsRun(lines, want) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s:%d: the Go snippet is in no .go file of the repository (cut snippets from a compiled example):\n%s", p.name, b.line, b.text)
			}
		}
	}
	if snippets < 5 {
		t.Errorf("found %d Go snippets in the README and docs/; the embedding guide alone shows more", snippets)
	}
}

// containsRun reports whether run appears in lines as consecutive lines.
func containsRun(lines, run []string) bool {
	if len(run) == 0 {
		return true
	}
	for i := 0; i+len(run) <= len(lines); i++ {
		if slices.Equal(lines[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

// TestContainsRun: a snippet must appear whole and in order.
func TestContainsRun(t *testing.T) {
	t.Parallel()
	lines := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		run  []string
		want bool
	}{{[]string{"b", "c"}, true}, {[]string{"a", "b", "c", "d"}, true}, {[]string{"b", "d"}, false}, {[]string{"c", "b"}, false}, {[]string{"d", "e"}, false}} {
		if got := containsRun(lines, c.run); got != c.want {
			t.Errorf("containsRun(%q) = %v, want %v", c.run, got, c.want)
		}
	}
}

var (
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading    = regexp.MustCompile(`(?m)^#{1,6} +(.+)$`)
)

// slug is GitHub's anchor of a heading: lower case, punctuation other
// than hyphens and underscores dropped, spaces made hyphens.
func slug(h string) string {
	h = strings.ToLower(strings.ReplaceAll(h, "`", ""))
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestSlug: anchors are made as GitHub makes them.
func TestSlug(t *testing.T) {
	t.Parallel()
	for h, want := range map[string]string{
		"Use it from your own tests":              "use-it-from-your-own-tests",
		"Reliability: what the engine guarantees": "reliability-what-the-engine-guarantees",
		"One call: `sim.Execute`":                 "one-call-simexecute",
		"The mutants command (the hand round)":    "the-mutants-command-the-hand-round",
		"A_b-c":                                   "a_b-c",
		"Guarantees — and limits":                 "guarantees--and-limits",
		"Größe":                                   "größe",
	} {
		if got := slug(h); got != want {
			t.Errorf("slug(%q) = %q, want %q", h, got, want)
		}
	}
}

// TestDocsLinks: every relative link of the README and docs/ leads to a
// file or directory of the repository, and an anchor to a heading of its
// page; other links are https. Links are not followed over the network.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	pages := docPages(t)
	anchors := map[string][]string{}
	for _, p := range pages {
		_, prose := fences(p.text)
		for _, m := range heading.FindAllStringSubmatch(prose, -1) {
			anchors[p.name] = append(anchors[p.name], slug(strings.TrimSpace(m[1])))
		}
	}
	links := 0
	for _, p := range pages {
		_, prose := fences(p.text)
		prose = inlineCode.ReplaceAllString(prose, "")
		for _, m := range mdLink.FindAllStringSubmatch(prose, -1) {
			links++
			target := m[1]
			if strings.HasPrefix(target, "https://") {
				continue
			}
			if strings.Contains(target, "://") || strings.HasPrefix(target, "/") {
				t.Errorf("%s: link %s is neither https nor relative to the page", p.name, target)
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			rel := p.name
			if file != "" {
				rel = filepath.ToSlash(filepath.Join(filepath.Dir(p.name), file))
				if strings.HasPrefix(rel, "../") {
					t.Errorf("%s: link %s leads out of the repository", p.name, target)
					continue
				}
				if _, err := os.Stat(filepath.Join(repoRoot, rel)); err != nil {
					t.Errorf("%s: link %s: %v", p.name, target, err)
					continue
				}
			}
			if anchor != "" {
				as, ok := anchors[rel]
				if !ok {
					t.Errorf("%s: link %s has an anchor in a file that is not a checked page", p.name, target)
				} else if !slices.Contains(as, anchor) {
					t.Errorf("%s: link %s: %s has no heading #%s", p.name, target, rel, anchor)
				}
			}
		}
	}
	if links < 10 {
		t.Errorf("found %d links in the README and docs/, fewer than they hold", links)
	}
}

// externalTools are the programs the README and docs/ may name in a
// command that is not the repository's own: each is a developer's tool
// outside the module, checked by hand, not by this test.
var externalTools = map[string]string{
	"python3":    "the oracle's capture driver, beside the repository",
	"duplicates": "the repeated-code finder of the test-duplication figure",
	"benchstat":  "golang.org/x/perf's summary of benchmark runs",
	"taskset":    "pins a benchmark to one core",
	"perf":       "whole-process timings",
	"shuf":       "draws a random sample of mutants",
	"mktemp":     "a scratch directory",
	"git":        "lists the files of the repository",
	"xargs":      "applies a command to a list",
	"cp":         "copies files",
	"eval":       "the oracle's setup prints the variables to set",
}

// externalModules are the Go programs of other modules that a command may
// run with go run, pinned to a version.
var externalModules = []string{"github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0"}

// placeholder matches a word that stands for a value the reader gives:
// NAME, ID, PKG, STAGE, UPSTREAM_FIXTURES_DIR.
var placeholder = regexp.MustCompile(`\b[A-Z][A-Z0-9_]+\b`)

// assignment matches a leading variable assignment of a command.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// shellCommands splits a shell block into commands: continuation lines
// joined, comments dropped, pipelines and && lists split, redirections
// and leading variable assignments removed.
func shellCommands(block string) [][]string {
	block = strings.ReplaceAll(block, "\\\n", " ")
	var cmds [][]string
	for line := range strings.SplitSeq(block, "\n") {
		words := shellWords(line)
		var cur []string
		flush := func() {
			for len(cur) > 0 && assignment.MatchString(cur[0]) {
				// NAME=value, or NAME=$(command …) over several words
				for strings.Contains(cur[0], "$(") && !strings.HasSuffix(cur[0], ")") && len(cur) > 1 {
					cur = cur[1:]
				}
				cur = cur[1:]
			}
			if len(cur) > 2 && cur[0] == "nice" && cur[1] == "-n" {
				cur = cur[3:]
			}
			if len(cur) > 0 {
				cmds = append(cmds, cur)
			}
			cur = nil
		}
		for i := 0; i < len(words); i++ {
			switch w := words[i]; {
			case w == "#" || strings.HasPrefix(w, "#"):
				i = len(words)
			case w == "|" || w == "&&" || w == ";":
				flush()
			case w == ">" || w == "<" || w == "2>":
				i++
			default:
				cur = append(cur, w)
			}
		}
		flush()
	}
	return cmds
}

// shellWords splits a line into words, as a shell does for the commands
// the docs show: single and double quotes group, quotes are removed.
func shellWords(line string) []string {
	var words []string
	var b strings.Builder
	in, quote := false, rune(0)
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			b.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}

// TestShellCommands: the splitting the command check relies on.
func TestShellCommands(t *testing.T) {
	t.Parallel()
	got := shellCommands("d=$(mktemp -d) && A=1 \\\nB='x y' nice -n 10 go run ./cmd -f 'a|b' # note\ngo run ./m -list ./p | shuf -n 30 > out.txt\n\nexport X=Y && go test ./...\n")
	want := [][]string{{"go", "run", "./cmd", "-f", "a|b"}, {"go", "run", "./m", "-list", "./p"}, {"shuf", "-n", "30"}, {"export", "X=Y"}, {"go", "test", "./..."}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("shellCommands = %q\nwant %q", got, want)
	}
}

// TestDocsCommands: every command of a shell block of the README and
// docs/ is checked. A vfsim command names a subcommand and flags that
// exist, and one that only reads the repository (no placeholder, every
// path it names present) runs and does not fail on its command line; a go
// test names packages that exist and -run and -bench patterns that match
// a test of them; a go run of the repository's own commands names flags
// they define; anything else is an external tool of a known list.
func TestDocsCommands(t *testing.T) {
	t.Parallel()
	commands := 0
	for _, p := range docPages(t) {
		blocks, _ := fences(p.text)
		for _, b := range blocks {
			if b.lang != "sh" {
				continue
			}
			for _, cmd := range shellCommands(b.text) {
				commands++
				where := p.name + ":" + strings.Join(cmd, " ")
				checkDocCommand(t, where, cmd)
			}
		}
	}
	if commands < 30 {
		t.Errorf("found %d shell commands in the README and docs/, fewer than they hold", commands)
	}
}

// checkDocCommand checks one command of the docs.
func checkDocCommand(t *testing.T, where string, cmd []string) {
	t.Helper()
	switch {
	case cmd[0] == "vfsim":
		checkVfsimCommand(t, where, cmd[1:])
	case len(cmd) > 2 && cmd[0] == "go" && cmd[1] == "run" && cmd[2] == "./sim/cmd/vfsim":
		checkVfsimCommand(t, where, cmd[3:])
	case len(cmd) > 2 && cmd[0] == "go" && cmd[1] == "run" && strings.HasPrefix(cmd[2], "./"):
		checkGoRun(t, where, cmd[2], cmd[3:])
	case len(cmd) > 2 && cmd[0] == "go" && cmd[1] == "run":
		if !slices.Contains(externalModules, cmd[2]) {
			t.Errorf("%s: %s is not the repository's, nor a module of the known list", where, cmd[2])
		}
	case len(cmd) > 1 && cmd[0] == "go" && cmd[1] == "test":
		checkGoTest(t, where, cmd[2:])
	case len(cmd) > 2 && cmd[0] == "go" && (cmd[1] == "install" || cmd[1] == "build"):
		checkPackageDir(t, where, cmd[len(cmd)-1], false)
	case cmd[0] == "bash":
		if _, err := os.Stat(filepath.Join(repoRoot, cmd[1])); err != nil {
			t.Errorf("%s: %v", where, err)
		}
	case cmd[0] == "export":
	case externalTools[cmd[0]] != "":
	default:
		t.Errorf("%s: a command this test does not know how to check; check it here or list its tool", where)
	}
}

// checkPackageDir checks that a package path (./x, ./x/, ./x/...) exists,
// and holds tests when tests is set; placeholders pass.
func checkPackageDir(t *testing.T, where, pkg string, tests bool) {
	t.Helper()
	if placeholder.MatchString(pkg) || pkg == "./..." {
		return
	}
	dir := filepath.Join(repoRoot, strings.TrimSuffix(strings.TrimSuffix(pkg, "..."), "/"))
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("%s: package %s does not exist", where, pkg)
		return
	}
	if tests && !strings.HasSuffix(pkg, "...") {
		if ts, _ := filepath.Glob(filepath.Join(dir, "*_test.go")); len(ts) == 0 {
			t.Errorf("%s: package %s has no tests", where, pkg)
		}
	}
}

// checkVfsimCommand checks a vfsim command line: its subcommand exists
// and takes every flag given; one that only reads the repository runs.
func checkVfsimCommand(t *testing.T, where string, args []string) {
	t.Helper()
	if len(args) == 0 {
		t.Errorf("%s: no subcommand", where)
		return
	}
	sub := args[0]
	if sub == "help" {
		if code, out, errs := runCLI(t, args...); code != 0 {
			t.Errorf("%s: exit %d\n%s%s", where, code, out, errs)
		}
		return
	}
	code, help, errs := runCLI(t, sub, "--help")
	if code != 0 {
		t.Errorf("%s: vfsim %s --help = %d: %s", where, sub, code, errs)
		return
	}
	runnable := true
	for i, a := range args[1:] {
		if a == "--" {
			runnable = false
			break
		}
		if strings.HasPrefix(a, "-") {
			name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if !strings.Contains(help, "  --"+name+" ") && !strings.Contains(help, "  --"+name+"\n") {
				t.Errorf("%s: vfsim %s has no flag --%s", where, sub, name)
			}
			continue
		}
		if placeholder.MatchString(a) {
			runnable = false
			continue
		}
		if path := filepath.Join(repoRoot, a); strings.Contains(a, "/") || strings.Contains(a, ".") {
			if _, err := os.Stat(path); err != nil {
				runnable = false
				continue
			}
			args[1+i] = path
		}
	}
	// Only the subcommands that read and never write run here.
	if !runnable || !slices.Contains([]string{"list", "check", "run", "lint", "explain"}, sub) {
		return
	}
	code, out, errs := runCLI(t, args...)
	// lint exits 1 for findings (the catalog holds broken fixtures on
	// purpose); 2 is a mistake in the command line for every command.
	if code == 2 || code != 0 && !(sub == "lint" && code == 1 && out != "") {
		t.Errorf("%s: exit %d\n%s%s", where, code, out, errs)
	}
}

var testFunc = regexp.MustCompile(`(?m)^func ((Test|Benchmark|Example|Fuzz)\w*)\(`)

// topLevel returns the patterns of the top level of a -run or -bench
// pattern: go test splits it into alternatives at the bars outside
// brackets and parentheses, and each alternative into levels at its
// slashes; a name of the top level matches when it matches the first
// level of one alternative.
func topLevel(pattern string) []string {
	var out []string
	depth, start, slash := 0, 0, -1
	for i, r := range pattern + "|" {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '/':
			if depth == 0 && slash < 0 {
				slash = i
			}
		case '|':
			if depth == 0 {
				end := i
				if slash >= 0 {
					end = slash
				}
				out = append(out, pattern[start:end])
				start, slash = i+1, -1
			}
		}
	}
	return out
}

// TestTopLevel: alternatives and levels are split as go test splits them.
func TestTopLevel(t *testing.T) {
	t.Parallel()
	for pattern, want := range map[string][]string{
		"FS/H/|Clone":             {"FS", "Clone"},
		"Scenario/upstream/memfs": {"Scenario"},
		"TestProp(A|B)$":          {"TestProp(A|B)$"},
		"Scenario|UpstreamAll":    {"Scenario", "UpstreamAll"},
		"[a/b]/c":                 {"[a/b]"},
	} {
		if got := topLevel(pattern); !slices.Equal(got, want) {
			t.Errorf("topLevel(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// checkGoTest checks a go test command line: its packages exist and its
// -run and -bench patterns match a test function of one of them.
func checkGoTest(t *testing.T, where string, args []string) {
	t.Helper()
	var pkgs []string
	patterns := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "./"):
			pkgs = append(pkgs, a)
		case (a == "-run" || a == "-bench") && i+1 < len(args):
			patterns[a] = args[i+1]
			i++
		case strings.HasPrefix(a, "-run=") || strings.HasPrefix(a, "-bench="):
			k, v, _ := strings.Cut(a, "=")
			patterns[k] = v
		case a == "-count" || a == "-cpu" || a == "-timeout" || a == "-benchtime":
			i++
		}
	}
	if len(pkgs) == 0 {
		t.Errorf("%s: no package", where)
	}
	var names []string
	for _, pkg := range pkgs {
		checkPackageDir(t, where, pkg, true)
		if placeholder.MatchString(pkg) {
			return
		}
		files, _ := filepath.Glob(filepath.Join(repoRoot, strings.TrimSuffix(pkg, "/"), "*_test.go"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range testFunc.FindAllStringSubmatch(string(data), -1) {
				names = append(names, m[1])
			}
		}
	}
	for flag, pattern := range patterns {
		if pattern == "^$" || placeholder.MatchString(pattern) && !strings.ContainsAny(pattern, "^$|()") {
			continue
		}
		var res []*regexp.Regexp
		for _, alt := range topLevel(pattern) {
			re, err := regexp.Compile(alt)
			if err != nil {
				t.Errorf("%s: %s %s: %v", where, flag, pattern, err)
				continue
			}
			res = append(res, re)
		}
		for _, re := range res {
			if !slices.ContainsFunc(names, func(n string) bool {
				return (flag == "-bench") == strings.HasPrefix(n, "Benchmark") && re.MatchString(n)
			}) {
				t.Errorf("%s: %s %s: %s matches no function of %s", where, flag, pattern, re, strings.Join(pkgs, " "))
			}
		}
	}
}

// checkGoRun checks a go run of one of the repository's commands: the
// package exists, and its first argument, when it is a word, and each
// flag are string literals of its sources (subcommand and flag names).
func checkGoRun(t *testing.T, where, pkg string, args []string) {
	t.Helper()
	checkPackageDir(t, where, pkg, false)
	files, _ := filepath.Glob(filepath.Join(repoRoot, pkg, "*.go"))
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(data)
	}
	if src.Len() == 0 {
		t.Errorf("%s: %s has no Go source", where, pkg)
		return
	}
	for i, a := range args {
		var name string
		switch {
		case strings.HasPrefix(a, "-") && len(a) > 1:
			name, _, _ = strings.Cut(strings.TrimLeft(a, "-"), "=")
		case i == 0 && regexp.MustCompile(`^[a-z]+$`).MatchString(a):
			name = a
		default:
			continue
		}
		if !strings.Contains(src.String(), `"`+name+`"`) {
			t.Errorf("%s: %s defines no %q", where, pkg, name)
		}
	}
}

// TestReadmeIsAGuide: the README stays a guide a user reads in minutes,
// with the quick start near the top; records and figures belong in
// docs/.
func TestReadmeIsAGuide(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) > 400 {
		t.Errorf("README.md has %d lines, more than 400: move records and figures to docs/", len(lines))
	}
	if i := slices.Index(lines, "## Quick start"); i < 0 || i >= 40 {
		t.Errorf("README.md's \"## Quick start\" is at line %d, want it within the first 40", i+1)
	}
	for _, h := range []string{"## Writing a fixture", "## Use it from your own tests", "## Embed it in a program", "## The upstream oracle", "## Deviations from upstream", "## Layout", "## Reliability: what the engine guarantees", "## Continuous integration"} {
		if !slices.Contains(lines, h) {
			t.Errorf("README.md has no section %q", h)
		}
	}
}
