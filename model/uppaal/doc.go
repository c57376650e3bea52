// Package uppaal reads and writes models in UPPAAL's formats: the XML
// format of UPPAAL's GUI (flat-1.2 DTD, with UPPAAL 5's query expectations),
// the textual XTA format and query files (.q). Readers produce a
// *model.File, the format-neutral document the YAML loader also fills, so
// imported models share tcheck's checker, compiler and query engine;
// writers print a *model.File back in either format.
//
// # Reading
//
//	ParseFile(name, src)     dispatch on the extension (.xml, .xta, .q is an
//	                         error, anything else is YAML); for .xta, queries
//	                         come from the .q file next to it
//	ParseXML(name, src)      UPPAAL XML
//	ParseXTA(name, src)      XTA (current syntax and the common 3.x forms)
//	ParseQueries(name, src)  a .q file
//
// Code (declarations, labels, the system) is kept as written, with
// positions into the file, so errors found by the checker name the line
// and column the user wrote. Global `const int N = <literal>;` declarations
// become model parameters (File.Params), which `--set` overrides.
// Constructs that would change the meaning and that tcheck does not
// support are errors at their position, never skipped: branchpoints,
// probability and exponential-rate labels, LSC templates, XTA branchpoint
// and probability sections; the rest (priorities, rates, hybrid clocks,
// double, meta, scalar, dynamic templates, statistical queries) is
// rejected by the syntax parser and the checker.
//
// # Writing
//
//	FormatXML(f)      UPPAAL XML that UPPAAL's GUI loads
//	FormatXTA(f)      XTA; FormatQueries(f.Queries) gives its .q file
//	FormatYAML(f)     tcheck's YAML (model.FormatYAML after tidying)
//
// Names that UPPAAL reserves (a location called init, a variable called
// select) are renamed consistently in the whole model, queries included,
// and tcheck's min/max calls are written with UPPAAL's <? and >? operators;
// see ForUPPAAL. docs/uppaal.md describes the mapping in full.
package uppaal
