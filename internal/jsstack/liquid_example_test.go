package jsstack_test

import (
	"fmt"

	"github.com/outfitter-go/vfsim/internal/jsstack"
)

func ExampleRenderLiquid() {
	env := jsstack.NewLiquidEnv(map[string]any{"outfitter": map[string]any{"agent": "pi", "list": []any{"a", "b"}}})
	out, _ := jsstack.RenderLiquid("[[= outfitter.agent | upcase ]]:[[% for x in outfitter.list %]] [[= x ]][[% endfor %]]", env)
	fmt.Println(out)
	_, err := jsstack.RenderLiquid("line one\n[[= outfitter.nope ]]", env)
	fmt.Println(err)
	// Output:
	// PI: a b
	// UndefinedVariableError: undefined variable: outfitter.nope, line:2, col:5
}
