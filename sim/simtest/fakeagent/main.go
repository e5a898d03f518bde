// Command fakeagent behaves like an agent CLI for tests that run a real
// process as the agent (simtest.FakeAgent builds it). It finds its config
// directory in PI_CODING_AGENT_DIR or, failing that, CLAUDE_CONFIG_DIR,
// and plays the script in FAKEAGENT_SCRIPT, one command a line:
//
//	write REL QUOTED    write the Go-quoted text to REL in the config dir
//	append REL QUOTED   append it
//	mkdir REL           create a directory in the config dir
//	print QUOTED        print the Go-quoted text and a newline
//	edit PATH QUOTED    write the Go-quoted text to PATH (absolute)
//	waitfor REL QUOTED  wait, 30 seconds at most, until REL in the config
//	                    dir (or REL itself when absolute) holds the
//	                    Go-quoted text, and print "saw REL"
//	args                print "args" and the arguments as JSON
//	env NAME            print "env NAME=value" (or "env NAME unset")
//	wait                print "ready" and sleep until a signal ends it
//	sleep DURATION      sleep for the Go duration (time.ParseDuration)
//	exit N              exit with code N
//
// Without an exit line it exits with code 0. A failing line prints the
// error to stderr and exits with code 99.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	dir := os.Getenv("PI_CODING_AGENT_DIR")
	if dir == "" {
		dir = os.Getenv("CLAUDE_CONFIG_DIR")
	}
	for line := range strings.Lines(os.Getenv("FAKEAGENT_SCRIPT")) {
		if err := step(dir, strings.TrimSpace(line)); err != nil {
			fmt.Fprintf(os.Stderr, "fakeagent: %s: %v\n", strings.TrimSpace(line), err)
			os.Exit(99)
		}
	}
}

func step(dir, line string) error {
	op, rest, _ := strings.Cut(line, " ")
	switch op {
	case "":
		return nil
	case "write", "append":
		rel, quoted, _ := strings.Cut(rest, " ")
		text, err := strconv.Unquote(quoted)
		if err != nil {
			return err
		}
		if dir == "" {
			return fmt.Errorf("no config dir in the environment")
		}
		flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if op == "append" {
			flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		f, err := os.OpenFile(filepath.Join(dir, rel), flag, 0o644)
		if err != nil {
			return err
		}
		_, err = f.WriteString(text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	case "mkdir":
		return os.Mkdir(filepath.Join(dir, rest), 0o755)
	case "print":
		text, err := strconv.Unquote(rest)
		if err != nil {
			return err
		}
		fmt.Println(text)
	case "edit":
		name, quoted, _ := strings.Cut(rest, " ")
		text, err := strconv.Unquote(quoted)
		if err != nil {
			return err
		}
		return os.WriteFile(name, []byte(text), 0o644)
	case "waitfor":
		rel, quoted, _ := strings.Cut(rest, " ")
		text, err := strconv.Unquote(quoted)
		if err != nil {
			return err
		}
		name := rel
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, rel)
		}
		// The refresh is the watcher's reaction to an edit: on a machine
		// whose cores are all busy it has been seen to take over 10 s.
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if data, err := os.ReadFile(name); err == nil && strings.Contains(string(data), text) {
				fmt.Println("saw " + rel)
				return nil
			}
		}
		return fmt.Errorf("%s never held %q", rel, text)
	case "args":
		data, err := json.Marshal(os.Args[1:])
		if err != nil {
			return err
		}
		fmt.Printf("args %s\n", data)
	case "env":
		if v, ok := os.LookupEnv(rest); ok {
			fmt.Printf("env %s=%s\n", rest, v)
		} else {
			fmt.Printf("env %s unset\n", rest)
		}
	case "wait":
		fmt.Println("ready")
		// The default disposition of SIGINT, SIGTERM and SIGHUP kills the
		// process; the test sends one after reading "ready".
		time.Sleep(time.Hour)
		return fmt.Errorf("no signal came")
	case "sleep":
		d, err := time.ParseDuration(rest)
		if err != nil {
			return err
		}
		time.Sleep(d)
	case "exit":
		code, err := strconv.Atoi(rest)
		if err != nil {
			return err
		}
		os.Exit(code)
	default:
		return fmt.Errorf("unknown command %q", op)
	}
	return nil
}
