// Package overlayfs is a copy-on-write overlay: a read-only lower file
// system seen through an in-memory upper layer that receives every change.
package overlayfs
