//go:build tcheckdebug

package dbm

// debug enables the invariant checks (closure, validity, preconditions)
// that the doc comments call "checked in debug builds". Build or test with
// -tags tcheckdebug to turn them on.
const debug = true
