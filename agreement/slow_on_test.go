//go:build slow

package agreement

// With -tags slow, the tests check every cheap instance of the issue (both
// groups with c1 = 1, d <= 1, f in {0, 1}) for every query of both models
// and every mutant: `go test -tags slow -timeout 2h ./agreement/`.
const slow = true
