package simtest

// SoloArchive is the text of a fixture archive with one profile: the
// home's settings select the profile solo from ./profiles, the profile
// sets the model solo-model, and the project is empty. Tests append the
// sections of their own files, scenarios and expected files to it.
const SoloArchive = `-- README.md --
A one-profile project.
-- home/.outfitter/settings.yml --
default_profile: solo
profile_sources:
  - path: ./profiles
-- home/.outfitter/profiles/solo/profile.yml --
id: solo
controls:
  model: solo-model
-- project/.keep --
`
