// Outfitter launch extension for pi (simulation stand-in).
export default function outfitter() {}
