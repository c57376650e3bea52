// Package cli holds tcheck's cobra commands. Commands are thin: they parse
// flags, call the library packages, print and map verdicts to exit codes.
package cli
