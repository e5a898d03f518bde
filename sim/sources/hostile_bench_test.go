package sources_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkHostileRepository measures what a synced repository can make
// one `outfitter sync` and one run cost: each iteration syncs the
// repository into a fresh home (a clone over file://) and runs pi with its
// profile, on the OS backend. The repositories: a 128 MiB profile
// document (refused after at most 16 MiB + 1 bytes are read), 20,000
// files, a 64 MiB file no profile names, and a skill reference glob
// rootlink/** with rootlink -> / (not walked). B/op counts the process's
// own allocations (git's are its child processes'). The figures are in
// docs/security.md; run it with
//
//	go test ./sim/sources -run '^$' -bench HostileRepository -benchtime 1x -benchmem
func BenchmarkHostileRepository(b *testing.B) {
	cases := []struct {
		name  string
		files func(work string) map[string]string
		links map[string]string
	}{
		{name: "document-128MiB", files: func(string) map[string]string {
			return map[string]string{"eng/profile.yml": "id: eng\n", "big.yml": "id: big\nx: " + string(bytes.Repeat([]byte("y"), 128<<20)) + "\n"}
		}},
		{name: "files-20000", files: func(string) map[string]string {
			files := map[string]string{"eng/profile.yml": "id: eng\n"}
			for i := range 20000 {
				files["docs/"+strconv.Itoa(i%100)+"/f"+strconv.Itoa(i)+".md"] = "x\n"
			}
			return files
		}},
		{name: "file-64MiB", files: func(string) map[string]string {
			return map[string]string{"eng/profile.yml": "id: eng\n", "assets/big.bin": string(bytes.Repeat([]byte("0123456789abcdef"), 4<<20))}
		}},
		{name: "glob-behind-link-to-root", files: func(string) map[string]string {
			return map[string]string{
				"eng/profile.yml":            "id: eng\ncontrols:\n  skills: [review]\n",
				"eng/skills/review/SKILL.md": "---\nname: review\nreferences:\n  - file: rootlink/**\n---\n# Review\n",
			}
		}, links: map[string]string{"rootlink": "/"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			env := gitEnv(b)
			r := newRepo(b, env, c.files(""))
			for name, target := range c.links {
				if err := os.Symlink(target, filepath.Join(r.work, name)); err != nil {
					b.Fatal(err)
				}
			}
			r.commit(nil)
			r.push()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				m := &hostileMachine{t: b, env: env, home: b.TempDir(), project: b.TempDir()}
				m.settings("default_profile: eng\nprofile_sources:\n  - uri: " + r.URL() + "\n")
				b.StartTimer()
				if _, err := m.trySync(); err != nil {
					b.Fatal(err)
				}
				m.run("eng")
			}
		})
	}
}
