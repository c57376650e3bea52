// Package dot draws the automata of a model as a Graphviz DOT graph, built
// with gonum's DOT encoding (gonum.org/v1/gonum/graph/encoding/dot).
//
// Each template is a cluster (subgraph cluster_<Template>) labelled with
// the template's name and parameters. A location is a node labelled with
// its name and invariant; the initial location has an entry arrow from a
// small point node; committed and urgent locations carry a (C) or (U) mark
// after the name (and are drawn shaded and dashed). An edge is labelled
// with its select, guard, synchronisation and update, one per line, in the
// colours UPPAAL's editor uses (select yellow, guard green, sync teal,
// update blue; invariants purple). Labels are HTML-like labels, so the text
// is escaped, and the output is deterministic: nodes and edges in model
// order.
//
// Render with `dot -Tsvg model.dot > model.svg`.
package dot
