// Command tcheck is a timed-automata model checker for partially synchronous
// distributed protocols. See the README and docs/ for usage.
package main
