// Package plot draws sweep results (package sweep) with gonum/plot: a
// result against one parameter, one line per series, and an overlaid
// expression as a dashed line of the same colour (`tcheck sweep --plot`).
package plot
