package resolve

import (
	"errors"

	"github.com/outfitter-go/vfsim/internal/jsstack"
)

// YAMLSizeError reports a YAML settings or profile file beyond a size
// limit of the port (upstream has none): its text is over Limit bytes, or
// its aliases would copy more than Limit values. File names the file; Size
// is the file's length in bytes, or the number of values copied when the
// conversion stopped.
type YAMLSizeError = jsstack.YAMLSizeError

// The port's limits on YAML documents (see the internal jsstack package).
const (
	maxYAMLBytes   = jsstack.MaxYAMLBytes
	maxAliasValues = jsstack.MaxAliasValues
)

// yamlErrorPrefix starts the text of every YAML syntax problem, as
// upstream's YAMLParseError does.
const yamlErrorPrefix = "YAMLParseError: "

// parseYAML reads a settings or profile document as upstream does, with
// the twin of the yaml library.
func parseYAML(data []byte) (any, error) { return jsstack.ParseYAML(data) }

// yamlIssue is the issue of a YAML problem in file at pointer; a
// [*YAMLSizeError] is named after file and kept as the issue's condition.
func yamlIssue(err error, file, pointer string) *Issue {
	is := &Issue{File: file, Pointer: pointer, Message: err.Error()}
	var size *YAMLSizeError
	if errors.As(err, &size) {
		size.File = file
		is.Err = size
	}
	return is
}

// ParseYAML parses one YAML document the way settings and profile files
// are parsed: YAML 1.2 core-schema scalars, values of type nil, bool,
// float64, string, []any and *[Object] (keys in document order); an empty
// or comment-only document is nil. Syntax errors, duplicate keys and
// several documents are errors whose text starts with "YAMLParseError: ";
// an alias budget overrun is upstream's ReferenceError and a document over
// the port's size limits a [*YAMLSizeError]. Other documents upstream
// parses with the same library (a SKILL.md frontmatter) use it.
func ParseYAML(data []byte) (any, error) { return parseYAML(data) }
