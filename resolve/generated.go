package resolve

// GeneratedJSON returns the content of the composite's outfitter/profile.json
// for p: {"id", "label" (when set), "controls"} indented by two spaces with
// the controls' key order, both spellings of the four snake_case controls,
// and a final newline, byte for byte as upstream writes it.
func (p *Profile) GeneratedJSON() []byte {
	doc := NewObject()
	doc.Set("id", p.ID)
	if p.Label != nil {
		doc.Set("label", *p.Label)
	}
	controls := p.Controls.Object
	if controls == nil {
		controls = NewObject()
	}
	doc.Set("controls", controls)
	return append(Stringify(doc, "  "), '\n')
}
