// Private catalog policy support (simulation stand-in).
module.exports = {};
