module github.com/outfitter-go/vfsim

go 1.26.0

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/go-git/go-billy/v5 v5.9.2
	github.com/google/go-cmp v0.7.0
	github.com/hack-pad/hackpadfs v0.2.4
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/spf13/afero v1.15.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.50.0
	golang.org/x/text v0.39.0
	golang.org/x/tools v0.52.0
	pgregory.net/rapid v1.3.0
)
