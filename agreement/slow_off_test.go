//go:build !slow

package agreement

const slow = false
