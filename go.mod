module github.com/outfitter-go/vfsim

go 1.26.0

require (
	github.com/go-git/go-billy/v5 v5.9.2 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hack-pad/hackpadfs v0.2.4 // indirect
	github.com/osteele/liquid v1.6.0 // indirect
	github.com/osteele/tuesday v1.0.3 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/spf13/afero v1.15.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.39.0 // indirect
	golang.org/x/tools v0.52.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
