// Private catalog onboarding support (simulation stand-in).
export function onboarding() {}
